import type { GroupConcern, RouteGroup } from './http/route-group.ts';

/**
 * The route groups and the rules each declares (docs/api.md, "Conventions"). Request ids,
 * the access log, the body cap and the error envelope apply to every group; CORS, body
 * rules and per-group concerns are declared here, once.
 */
export function routeGroups(concerns: Partial<Record<GroupName, GroupConcern[]>> = {}) {
  return {
    /** verify, load, register-domain: called by every embedding page (text/plain bodies too). */
    widget: { name: 'widget', cors: 'any-origin', body: { widget: true }, concerns: concerns.widget ?? [] },
    /** The public calculator catalogue and the embed script: read by any page. */
    public: { name: 'public', cors: 'any-origin', body: { widget: false }, concerns: concerns.public ?? [] },
    /** The owner's API (bearer token): same-origin only, JSON bodies. */
    owner: { name: 'owner', cors: 'same-origin', body: { widget: false }, concerns: concerns.owner ?? [] },
    /** Health, the demo pages and the API reference. */
    site: { name: 'site', cors: 'same-origin', body: { widget: false }, concerns: concerns.site ?? [] },
  } satisfies Record<GroupName, RouteGroup>;
}

type GroupName = 'widget' | 'public' | 'owner' | 'site';
