/** Addresses of the dashboard's pages; the History API moves between them without reloads. */
import { signal } from '@preact/signals';

export const BASE = '/dashboard';

export type Route =
  | { page: 'overview' }
  | { page: 'domains' }
  | { page: 'calculators' }
  | { page: 'calculator'; calcId: string }
  | { page: 'usage' }
  | { page: 'account' }
  | { page: 'not-found' };

export const path = signal(location.pathname);

/** Whether the current page was reached by a link (then its heading takes focus). */
export let navigated = false;

addEventListener('popstate', () => {
  navigated = true;
  path.value = location.pathname;
});

export function navigate(to: string): void {
  navigated = true;
  if (to !== location.pathname) history.pushState(null, '', to);
  path.value = to;
}

export function routeOf(pathname: string): Route {
  const rest = pathname.replace(/\/+$/, '').slice(BASE.length);
  if (rest === '') return { page: 'overview' };
  if (rest === '/domains') return { page: 'domains' };
  if (rest === '/calculators') return { page: 'calculators' };
  if (rest === '/usage') return { page: 'usage' };
  if (rest === '/account') return { page: 'account' };
  const calculator = /^\/calculators\/([a-z0-9-]{1,64})$/.exec(rest);
  if (calculator?.[1]) return { page: 'calculator', calcId: calculator[1] };
  return { page: 'not-found' };
}
