import { useEffect, useRef, useState } from 'preact/hooks';
import type { AccountOverviewBody, DomainListBody, ResultJson, ResultListBody } from '../../../src/api-bodies.ts';
import { api, apiResponse, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Link } from '../components/link.tsx';
import { ResultsPlanWarning } from '../components/results-plan.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { formatDateTime } from '../format.ts';
import { BASE, RESULTS_ENDPOINT_PATH } from '../router.ts';
import { useApi } from '../use-api.ts';
import { usePages } from '../use-pages.ts';

interface Filters {
  calcId: string;
  domain: string;
  from: string;
  to: string;
  email: string;
}

const NO_FILTERS: Filters = { calcId: '', domain: '', from: '', to: '', email: '' };

/** The query of the filters that are set. */
function queryOf(filters: Filters): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value.trim() !== '') query.set(name, value.trim());
  return query;
}

/** The list's first page under `filters`: 25 results, newest first. */
function listPath(filters: Filters): string {
  const query = queryOf(filters);
  query.set('limit', '25');
  return `/v1/results?${query}`;
}

const contactOf = (result: ResultJson) =>
  [result.contact.name, result.contact.email].filter((part) => part !== undefined).join(', ') || '—';

const pairs = (record: Record<string, unknown>) =>
  Object.entries(record).map(([key, value]) => (
    <span key={key} class="pair">
      <code>{key}</code> = {value === null ? '—' : String(value)}
    </span>
  ));

/** One result in full, in a dialog that gives focus back to the button that opened it. */
function Detail(props: { result: ResultJson; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { result } = props;
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog ref={dialog} aria-labelledby="result-heading" onClose={props.onClose} class="confirm">
      <h2 id="result-heading">Result {result.id}</h2>
      <dl class="facts">
        <dt>Sent</dt>
        <dd>{formatDateTime(result.createdAt)}</dd>
        <dt>Calculator</dt>
        <dd>{result.calcId}</dd>
        <dt>Page</dt>
        <dd>{result.page ?? result.domain}</dd>
        <dt>UTM</dt>
        <dd>{Object.keys(result.utm).length ? pairs(result.utm) : '—'}</dd>
        <dt>Inputs ({result.units})</dt>
        <dd>{pairs(result.inputs)}</dd>
        <dt>Outputs</dt>
        <dd>{pairs(result.outputs)}</dd>
        <dt>Email</dt>
        <dd>{result.contact.email ?? '—'}</dd>
        <dt>Name</dt>
        <dd>{result.contact.name ?? '—'}</dd>
        <dt>Visitor</dt>
        <dd>{result.visitor ?? '—'}</dd>
        <dt>Consent</dt>
        <dd>{result.consent ? `“${result.consent.text}”, ${formatDateTime(result.consent.at)}` : '—'}</dd>
        <dt>Pre-filled</dt>
        <dd>{Object.keys(result.prefill).length ? pairs(result.prefill) : '—'}</dd>
      </dl>
      <div class="actions">
        <button type="button" class="primary" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}

/**
 * Downloads the export with the session's token in a header (never in a URL): the browser
 * holds the file until it is saved, so very large exports belong to `calc results export`.
 */
async function download(query: URLSearchParams): Promise<number> {
  const response = await apiResponse('GET', `/v1/results/export?${query}`);
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'results.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  return blob.size;
}

/** What visitors sent: filters, a table a page at a time, a result in full, delete, CSV export. */
export function Results() {
  const overview = useApi<AccountOverviewBody>('/v1/account');
  const domains = useApi<DomainListBody>('/v1/domains');
  const [editing, setEditing] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const { first, rows, next, more, restart } = usePages(listPath(filters), (body: ResultListBody) => body.results);
  const [shown, setShown] = useState<ResultJson | null>(null);
  const [deleting, setDeleting] = useState<ResultJson | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const account = overview.data?.account;
  const field = (name: keyof Filters) => ({
    value: editing[name],
    onInput: (event: { currentTarget: { value: string } }) =>
      setEditing((now) => ({ ...now, [name]: event.currentTarget.value })),
  });

  return (
    <>
      <PageTitle>Results</PageTitle>
      <p class="lead">
        What visitors sent from your calculators, with the outputs calc computed itself. Turn results on for a
        calculator on its page; calc delivers each one to your{' '}
        <Link href={`${BASE}${RESULTS_ENDPOINT_PATH}`}>results endpoint</Link>.
      </p>
      {account && <ResultsPlanWarning account={account} />}
      <section aria-labelledby="filters-heading" class="card">
        <h2 id="filters-heading">Filters</h2>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters(editing);
          }}
        >
          <span class="field">
            <label for="filter-calc">Calculator</label>
            <input id="filter-calc" placeholder="any (e.g. mortgage)" {...field('calcId')} />
          </span>
          <span class="field">
            <label for="filter-domain">Domain</label>
            <select id="filter-domain" {...field('domain')}>
              <option value="">any</option>
              {(domains.data?.domains ?? []).map((d) => (
                <option key={d.domain} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </span>
          <span class="field">
            <label for="filter-from">From</label>
            <input id="filter-from" type="date" {...field('from')} />
          </span>
          <span class="field">
            <label for="filter-to">To</label>
            <input id="filter-to" type="date" {...field('to')} />
          </span>
          <span class="field">
            <label for="filter-email">Email</label>
            <input id="filter-email" type="search" placeholder="a visitor's address" {...field('email')} />
          </span>
          <div class="actions">
            <button type="submit" class="primary">
              Apply filters
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                setNotice({ kind: 'ok', text: 'Preparing the CSV export…' });
                try {
                  const bytes = await download(
                    new URLSearchParams({ ...Object.fromEntries(queryOf(filters)), format: 'csv' }),
                  );
                  setNotice({ kind: 'ok', text: `CSV export downloaded (${Math.ceil(bytes / 1024)} KB).` });
                } catch (error) {
                  setNotice({ kind: 'error', text: messageOf(error) });
                }
                setBusy(false);
              }}
            >
              Export CSV
            </button>
          </div>
        </form>
        <p class="hint">
          The export holds every result the filters select; <code>calc results export</code> streams any number.
        </p>
        <Notice notice={notice} />
      </section>
      {first.error && <p role="alert">{first.error}</p>}
      {first.data && rows.length === 0 && (
        <p>No results{queryOf(filters).size > 0 ? ' match these filters' : ' yet'}.</p>
      )}
      {rows.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Results, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Calculator</th>
                <th scope="col">Domain</th>
                <th scope="col">Contact</th>
                <th scope="col">Visitor</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{formatDateTime(r.createdAt)}</th>
                  <td>{r.calcId}</td>
                  <td>{r.domain}</td>
                  <td>{contactOf(r)}</td>
                  <td>{r.visitor ?? '—'}</td>
                  <td class="row-actions">
                    <button type="button" aria-label={`View result ${r.id}`} onClick={() => setShown(r)}>
                      View
                    </button>
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Delete result ${r.id}`}
                      onClick={() => setDeleting(r)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button
          type="button"
          onClick={async () => {
            try {
              await more();
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
          }}
        >
          Older results
        </button>
      )}
      {shown && <Detail result={shown} onClose={() => setShown(null)} />}
      {deleting && (
        <Confirm
          title="Delete this result?"
          confirmLabel="Delete"
          busy={busy}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            setBusy(true);
            try {
              await api('DELETE', `/v1/results/${deleting.id}`);
              setNotice({ kind: 'ok', text: `Result ${deleting.id} deleted.` });
              restart();
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
            setBusy(false);
            setDeleting(null);
          }}
        >
          <p>
            The result sent {formatDateTime(deleting.createdAt)} ({contactOf(deleting)}) is deleted for good, with its
            event if it still waits for delivery.
          </p>
        </Confirm>
      )}
    </>
  );
}
