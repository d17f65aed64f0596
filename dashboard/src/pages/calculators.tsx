import { useState } from 'preact/hooks';
import { textIn } from '../../../src/definition/text.ts';
import { api, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Link } from '../components/link.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { formatDateTime } from '../format.ts';
import { BASE, builderPath, navigate } from '../router.ts';
import { useApi } from '../use-api.ts';
import type { AccountCalculatorBody, AccountCalculatorListBody, CalculatorListBody } from '../../../src/api-bodies.ts';

type Own = AccountCalculatorListBody['calculators'][number];

const STATUS: Record<Own['status'], string> = {
  draft: 'Draft, not published',
  published: 'Published',
  changed: 'Published, draft changed',
};

/** A lower-case id from a title: "Roof quote" → `roof-quote`. */
const idFrom = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

/** The smallest calculator the server accepts: one number input, one result. The builder takes it from there. */
const blank = (id: string, title: string) => ({
  id,
  title,
  inputs: [{ kind: 'number', key: 'amount', label: 'Amount', min: 0, max: 1000, default: 100 }],
  outputs: [{ key: 'result', label: 'Result', formula: 'amount' }],
});

function NewCalculator(props: { templates: CalculatorListBody['calculators'] }) {
  const [from, setFrom] = useState('');
  const [title, setTitle] = useState('');
  const [id, setId] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const chosenId = id.trim() || (from ? '' : idFrom(title));
  return (
    <form
      class="card"
      aria-labelledby="new-heading"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        try {
          const body = from
            ? { from, ...(chosenId ? { id: chosenId } : {}) }
            : { definition: blank(chosenId, title.trim()) };
          const created = await api<AccountCalculatorBody>('POST', '/v1/account/calculators', body);
          navigate(builderPath(created.id));
        } catch (error) {
          setNotice({ kind: 'error', text: messageOf(error) });
          setBusy(false);
        }
      }}
    >
      <h2 id="new-heading">New calculator</h2>
      <div class="options">
        <label>
          Start from
          <select value={from} onChange={(event) => setFrom(event.currentTarget.value)}>
            <option value="">Blank</option>
            {props.templates.map((template) => (
              <option key={template.id} value={template.id}>
                Template: {template.title}
              </option>
            ))}
          </select>
        </label>
        {!from && (
          <label>
            Title
            <input
              type="text"
              required
              maxLength={200}
              value={title}
              onInput={(e) => setTitle(e.currentTarget.value)}
            />
          </label>
        )}
        <label>
          Id
          <input
            type="text"
            maxLength={64}
            placeholder={from ? `${from}-copy` : idFrom(title) || 'roof-quote'}
            aria-describedby="new-id-hint"
            value={id}
            onInput={(event) => setId(event.currentTarget.value)}
          />
        </label>
      </div>
      <p id="new-id-hint" class="hint">
        Lower-case letters, digits and dashes; it names the calculator in embed snippets and cannot change later.
      </p>
      <button type="submit" class="primary" disabled={busy}>
        New calculator
      </button>
      <Notice notice={notice} />
    </form>
  );
}

export function Calculators() {
  const list = useApi<CalculatorListBody>('/v1/calculators');
  const own = useApi<AccountCalculatorListBody>('/v1/account/calculators');
  const [deleting, setDeleting] = useState<Own | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const mine = own.data?.calculators ?? [];
  return (
    <>
      <PageTitle>Calculators</PageTitle>
      <p class="lead">
        Build your own calculators, or pick one to get its embed snippet, preview it and set up its pre-fill webhook.
      </p>
      <section aria-labelledby="own-heading">
        <h2 id="own-heading">Your calculators</h2>
        <Notice notice={notice} />
        {own.error && <p role="alert">{own.error}</p>}
        {own.data && mine.length === 0 && <p>None yet: start one below, blank or from a template.</p>}
        {mine.length > 0 && (
          <div class="table-scroll">
            <table>
              <caption class="visually-hidden">Your calculators</caption>
              <thead>
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Status</th>
                  <th scope="col">Published version</th>
                  <th scope="col">Updated</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {mine.map((calculator) => {
                  const title = textIn(calculator.title, 'en');
                  return (
                    <tr key={calculator.id}>
                      <th scope="row">
                        <Link href={`${BASE}/calculators/${calculator.id}`}>{title}</Link>{' '}
                        <code class="hint">{calculator.id}</code>
                      </th>
                      <td>{STATUS[calculator.status]}</td>
                      <td>{calculator.publishedVersion ?? '—'}</td>
                      <td>{formatDateTime(calculator.updatedAt)}</td>
                      <td class="row-actions">
                        <Link href={builderPath(calculator.id)}>
                          Edit<span class="visually-hidden"> {title}</span>
                        </Link>
                        <button type="button" disabled={busy} onClick={() => setDeleting(calculator)}>
                          Delete<span class="visually-hidden"> {title}</span>
                        </button>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {list.data && <NewCalculator templates={list.data.calculators} />}
      <h2>Catalogue</h2>
      <p class="hint">Ready to embed as they are, and templates for your own.</p>
      {list.error && <p role="alert">{list.error}</p>}
      <ul class="catalogue">
        {list.data?.calculators.map((calculator) => (
          <li key={calculator.id} class="card">
            <h3>
              <Link href={`${BASE}/calculators/${calculator.id}`}>{calculator.title}</Link>
            </h3>
            <p class="hint">
              <code>{calculator.id}</code> · {calculator.category}
            </p>
            <p>{calculator.description}</p>
          </li>
        ))}
      </ul>
      {deleting && (
        <Confirm
          title={`Delete ${textIn(deleting.title, 'en')}?`}
          confirmLabel="Delete"
          busy={busy}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            setBusy(true);
            try {
              await api('DELETE', `/v1/account/calculators/${deleting.id}`);
              setNotice({ kind: 'ok', text: `${textIn(deleting.title, 'en')} is deleted.` });
              setDeleting(null);
              own.reload();
            } catch (error) {
              setNotice({ kind: 'error', text: messageOf(error) });
            }
            setBusy(false);
          }}
        >
          <p>
            Its draft and every published version go. Pages that embed <code>{deleting.id}</code> show it as
            unavailable; its usage history stays.
          </p>
        </Confirm>
      )}
    </>
  );
}
