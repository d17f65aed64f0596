import { useState } from 'preact/hooks';
import type {
  AccountOverviewBody,
  DeliveryJson,
  DeliveryListBody,
  ResultsEndpointBody,
  RotatedSecretBody,
  SavedEndpointBody,
  TestEventBody,
} from '../../../src/api-bodies.ts';
import { EVENT_TYPES } from '../../../src/delivery/events.ts';
import { api, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { ResultsPlanWarning } from '../components/results-plan.tsx';
import { formatDateTime } from '../format.ts';
import { useApi } from '../use-api.ts';
import { usePages } from '../use-pages.ts';

const PATH = '/v1/account/results-endpoint';
type Endpoint = NonNullable<ResultsEndpointBody['endpoint']>;

const result = (d: DeliveryJson) => `${d.outcome}${d.status === null ? '' : ` (HTTP ${d.status})`}`;

/** A secret the server answers once: shown until the page is left, with a copy button. */
function OnceSecret(props: { secret: string }) {
  const [copied, setCopied] = useState<NoticeState | null>(null);
  return (
    <div class="warning">
      <label for="endpoint-secret">Signing secret (shown once)</label>
      <input id="endpoint-secret" class="key" readOnly value={props.secret} aria-describedby="secret-warning" />
      <p id="secret-warning">
        Copy it into your endpoint's configuration now: calc never shows it again. Verify each delivery with it (see
        docs/results.md).
      </p>
      <button
        type="button"
        onClick={() =>
          navigator.clipboard.writeText(props.secret).then(
            () => setCopied({ kind: 'ok', text: 'Secret copied.' }),
            () => setCopied({ kind: 'error', text: 'Copying is blocked here: select the field and copy it by hand.' }),
          )
        }
      >
        Copy secret
      </button>
      <Notice notice={copied} />
    </div>
  );
}

function Settings(props: { endpoint: Endpoint | null; onSaved: (endpoint: Endpoint | null, secret?: string) => void }) {
  const { endpoint } = props;
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? [...EVENT_TYPES]);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [asking, setAsking] = useState<'rotate' | 'remove' | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<string>) {
    setBusy(true);
    setNotice(null);
    try {
      setNotice({ kind: 'ok', text: await work() });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setBusy(false);
    setAsking(null);
  }
  const save = (enabled: boolean) =>
    run(async () => {
      const saved = await api<SavedEndpointBody>('PUT', PATH, { url: url.trim(), events, enabled });
      props.onSaved(saved.endpoint, saved.secret);
      return saved.secret ? 'Endpoint created.' : enabled ? 'Endpoint saved and on.' : 'Endpoint turned off.';
    });

  return (
    <section aria-labelledby="settings-heading" class="card wide">
      <h2 id="settings-heading">Settings</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save(true);
        }}
      >
        <label for="endpoint-url">Endpoint URL</label>
        <input
          id="endpoint-url"
          type="url"
          required
          placeholder="https://api.shop.example/calc-events"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
        />
        <fieldset>
          <legend>Events it receives (test events always)</legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} class="check">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(event) =>
                  setEvents((list) =>
                    event.currentTarget.checked ? [...list, type] : list.filter((other) => other !== type),
                  )
                }
              />{' '}
              <code>{type}</code>
            </label>
          ))}
        </fieldset>
        {endpoint && (
          <p class={endpoint.enabled ? 'hint' : 'warning'}>
            {endpoint.enabled
              ? `On. Secret whsec_…${endpoint.secretLast4}.`
              : `Off: ${endpoint.disabledReason ?? ''} Events wait in the queue until it is on again.`}
            {endpoint.failingSince ? ` Failing since ${formatDateTime(endpoint.failingSince)}.` : ''}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {endpoint && !endpoint.enabled ? 'Save and turn on' : 'Save'}
          </button>
          {endpoint?.enabled && (
            <button type="button" disabled={busy} onClick={() => void save(false)}>
              Turn off
            </button>
          )}
          {endpoint && (
            <button type="button" disabled={busy} onClick={() => setAsking('rotate')}>
              Rotate secret
            </button>
          )}
          {endpoint && (
            <button type="button" class="danger" disabled={busy} onClick={() => setAsking('remove')}>
              Remove endpoint
            </button>
          )}
        </div>
      </form>
      <Notice notice={notice} />
      {asking === 'rotate' && (
        <Confirm
          title="Rotate the endpoint's secret?"
          confirmLabel="Rotate"
          busy={busy}
          onClose={() => setAsking(null)}
          onConfirm={() =>
            run(async () => {
              const rotated = await api<RotatedSecretBody>('POST', `${PATH}/rotate-secret`);
              props.onSaved(endpoint, rotated.secret);
              return `New secret made; the previous one signs too until ${formatDateTime(rotated.previousValidUntil)}.`;
            })
          }
        >
          <p>For 24 hours every delivery carries both signatures; then only the new secret signs.</p>
        </Confirm>
      )}
      {asking === 'remove' && (
        <Confirm
          title="Remove the results endpoint?"
          confirmLabel="Remove"
          busy={busy}
          onClose={() => setAsking(null)}
          onConfirm={() =>
            run(async () => {
              await api('DELETE', PATH);
              props.onSaved(null);
              return 'Endpoint removed with its queued events and log.';
            })
          }
        >
          <p>Queued events and the delivery log go with it; its secret stops working.</p>
        </Confirm>
      )}
    </section>
  );
}

function Log(props: { enabled: boolean }) {
  const { first, rows, next, more, restart } = usePages(
    `${PATH}/deliveries?limit=20`,
    (body: DeliveryListBody) => body.deliveries,
  );
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const act = async (work: () => Promise<string>) => {
    try {
      setNotice({ kind: 'ok', text: await work() });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    restart();
  };
  return (
    <section aria-labelledby="log-heading" class="card wide">
      <h2 id="log-heading">Delivery log</h2>
      <div class="actions">
        <button
          type="button"
          disabled={!props.enabled}
          onClick={() =>
            act(async () => {
              const sent = await api<TestEventBody>('POST', `${PATH}/test`);
              return sent.delivery ? `Test event: ${result(sent.delivery)}.` : 'Test event queued.';
            })
          }
        >
          Send test event
        </button>
        <button type="button" onClick={() => act(async () => 'Log refreshed.')}>
          Refresh
        </button>
      </div>
      <Notice notice={notice} />
      {first.error && <p role="alert">{first.error}</p>}
      {first.data && rows.length === 0 && <p>No deliveries yet.</p>}
      {rows.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>Attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Answer</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={`${d.eventId}-${d.attempt}`}>
                  <td>{formatDateTime(d.at)}</td>
                  <th scope="row">
                    <code>{d.eventId}</code> {d.type}
                  </th>
                  <td>{d.attempt}</td>
                  <td>
                    {result(d)}, {d.durationMs} ms
                  </td>
                  <td>
                    <code>{d.response.slice(0, 80)}</code>
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      disabled={!props.enabled}
                      aria-label={`Resend ${d.eventId}`}
                      onClick={() =>
                        act(async () => {
                          await api('POST', `${PATH}/deliveries/${d.eventId}/resend`);
                          return `Event ${d.eventId} is being sent again.`;
                        })
                      }
                    >
                      Resend
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
          onClick={() => more().catch((error) => setNotice({ kind: 'error', text: messageOf(error) }))}
        >
          Older attempts
        </button>
      )}
    </section>
  );
}

/** The results endpoint: where calc POSTs signed events, its secret, its delivery log. */
export function ResultsEndpoint() {
  const overview = useApi<AccountOverviewBody>('/v1/account');
  const loaded = useApi<ResultsEndpointBody>(PATH);
  const [secret, setSecret] = useState<string | null>(null);
  const account = overview.data?.account;
  const endpoint = loaded.data?.endpoint ?? null;
  return (
    <>
      <PageTitle>Results endpoint</PageTitle>
      <p class="lead">
        calc POSTs each event (a submitted result, usage warnings, tests) to your endpoint, signed by the Standard
        Webhooks convention, and retries failures for three days.
      </p>
      {account && <ResultsPlanWarning account={account} />}
      {loaded.error && <p role="alert">{loaded.error}</p>}
      {secret && <OnceSecret secret={secret} />}
      {loaded.data && (
        <div class="grid">
          <Settings
            endpoint={endpoint}
            onSaved={(saved, made) => {
              loaded.set({ endpoint: saved });
              setSecret(made ?? null);
            }}
          />
          {endpoint && <Log enabled={endpoint.enabled} />}
        </div>
      )}
    </>
  );
}
