import { useState } from 'preact/hooks';
import { matchingOrigins } from '../../../src/domains/origin.ts';
import { api, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { formatDateTime } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { DomainBody, DomainJson, DomainListBody } from '../../../src/api-bodies.ts';

/** Which registered origin (if any) lets a page at `address` show widgets: the server's own rule. */
function tryAddress(address: string, domains: DomainJson[]): string {
  // A page's origin as the browser spells it is the stored spelling (lower case, punycode, no
  // default port): the server's parser, with its error catalogue, stays out of the bundle.
  let url: URL | undefined;
  try {
    url = new URL(address.trim());
  } catch {}
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:')
    return `"${address}" is not a page address such as https://a.shop.example/page.`;
  const { origin } = url;
  const byOrigin = new Map(domains.map((domain) => [domain.domain, domain]));
  const found = matchingOrigins(origin)
    .map((candidate) => byOrigin.get(candidate))
    .find((domain) => domain !== undefined);
  if (!found) return `No: ${origin} matches none of your domains.`;
  if (found.status === 'pending') return `Not yet: ${origin} matches ${found.domain}, which is waiting for approval.`;
  return `Yes: ${origin} matches ${found.domain}.`;
}

function WildcardTester(props: { domains: DomainJson[] }) {
  const [address, setAddress] = useState('');
  const [answer, setAnswer] = useState('');
  return (
    <section aria-labelledby="tester-heading" class="card">
      <h2 id="tester-heading">Does a page match?</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setAnswer(tryAddress(address, props.domains));
        }}
      >
        <label for="tester-address">Page address</label>
        <input
          id="tester-address"
          type="url"
          placeholder="https://a.shop.example"
          required
          value={address}
          onInput={(event) => setAddress(event.currentTarget.value)}
        />
        <button type="submit">Check</button>
      </form>
      <p role="status">{answer}</p>
    </section>
  );
}

export function Domains() {
  const list = useApi<DomainListBody>('/v1/domains');
  const [origin, setOrigin] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function act(run: () => Promise<string>) {
    setBusy(true);
    try {
      setNotice({ kind: 'ok', text: await run() });
      list.reload();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setBusy(false);
  }

  const add = (raw: string) =>
    act(async () => {
      const { domain } = await api<DomainBody>('POST', '/v1/domains', { domain: raw });
      setOrigin('');
      return `${domain.domain} is active.`;
    });

  const domains = list.data?.domains ?? [];
  return (
    <>
      <PageTitle>Domains</PageTitle>
      <p class="lead">
        Pages on these origins may show your calculators. A wildcard such as <code>https://*.shop.example</code> covers
        every subdomain, not <code>shop.example</code> itself.
      </p>
      <form
        class="inline card"
        onSubmit={(event) => {
          event.preventDefault();
          void add(origin);
        }}
      >
        <label for="origin">Origin</label>
        <input
          id="origin"
          type="text"
          inputMode="url"
          placeholder="https://shop.example"
          required
          value={origin}
          onInput={(event) => setOrigin(event.currentTarget.value)}
        />
        <button type="submit" class="primary" disabled={busy}>
          Add
        </button>
      </form>
      <Notice notice={notice} />
      {list.error && <p role="alert">{list.error}</p>}
      {list.data && domains.length === 0 && <p>No domains yet: add the origin of the site that embeds a calculator.</p>}
      {domains.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Your domains</caption>
            <thead>
              <tr>
                <th scope="col">Origin</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {domains.map((domain) => (
                <tr key={domain.domain}>
                  <th scope="row">
                    <code>{domain.domain}</code>
                  </th>
                  <td>
                    <span class={`status ${domain.status}`}>
                      {domain.status === 'active' ? 'Active' : 'Pending approval'}
                    </span>
                  </td>
                  <td>{formatDateTime(domain.createdAt)}</td>
                  <td class="row-actions">
                    {domain.status === 'pending' && (
                      <button
                        type="button"
                        disabled={busy}
                        aria-label={`Approve ${domain.domain}`}
                        onClick={() => add(domain.domain)}
                      >
                        Approve
                      </button>
                    )}
                    <button
                      type="button"
                      disabled={busy}
                      aria-label={`Remove ${domain.domain}`}
                      onClick={() => setRemoving(domain.domain)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <WildcardTester domains={domains} />
      {removing && (
        <Confirm
          title={`Remove ${removing}?`}
          confirmLabel="Remove"
          busy={busy}
          onClose={() => setRemoving(null)}
          onConfirm={() =>
            void act(async () => {
              await api<DomainBody>('DELETE', '/v1/domains', { domain: removing });
              setRemoving(null);
              return `${removing} is removed.`;
            })
          }
        >
          <p>Pages on this origin stop showing your calculators at once.</p>
        </Confirm>
      )}
    </>
  );
}
