import { useEffect, useState } from 'preact/hooks';
import { REDACTED } from '../../../src/webhook/headers.ts';
import { api, messageOf } from '../api.ts';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { formatDateTime } from '../format.ts';
import type { AccountOverviewBody, TestWebhookBody, WidgetConfigBody } from '../../../src/api-bodies.ts';
import { hasWebhooks, PLAN_NAMES, setPlanCommand, WEBHOOK_PLAN } from '../../../src/plans.ts';

interface HeaderRow {
  id: number;
  name: string;
  /** Empty with `stored`: keep the stored value (sent back as the redaction marker). */
  value: string;
  stored: boolean;
}

let nextRow = 1;

function rowsOf(config: WidgetConfigBody['config']): HeaderRow[] {
  return Object.keys(config.webhook?.headers ?? {}).map((name) => ({ id: nextRow++, name, value: '', stored: true }));
}

function Outcome(props: { title: string; result: TestWebhookBody }) {
  const { result } = props;
  const values = Object.entries(result.values);
  return (
    <section class="outcome" aria-labelledby="test-heading">
      <h3 id="test-heading">{props.title}</h3>
      <dl class="facts">
        <dt>Outcome</dt>
        <dd>
          <code>{result.outcome}</code>
        </dd>
        <dt>HTTP status</dt>
        <dd>{result.httpStatus ?? '—'}</dd>
        <dt>Duration</dt>
        <dd>{Math.round(result.durationMs)} ms</dd>
        <dt>Values</dt>
        <dd>
          {values.length === 0
            ? 'none'
            : values.map(([key, value]) => (
                <span key={key} class="pair">
                  <code>{key}</code> = {String(value)}
                </span>
              ))}
        </dd>
        <dt>Ignored keys</dt>
        <dd>
          {result.ignoredKeys.length === 0 ? 'none' : result.ignoredKeys.map((key) => <code key={key}>{key} </code>)}
        </dd>
      </dl>
    </section>
  );
}

/**
 * The pre-fill webhook of one calculator. Header values are write-only: the server never
 * sends a stored value back, so a stored one shows as "(stored)" and is kept unless the
 * owner types a new value.
 */
export function WebhookForm(props: {
  calcId: string;
  account: Pick<AccountOverviewBody['account'], 'email' | 'plan'>;
  onChanged: () => void;
}) {
  const [loaded, setLoaded] = useState<WidgetConfigBody | null>(null);
  const [url, setUrl] = useState('');
  const [rows, setRows] = useState<HeaderRow[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [tested, setTested] = useState<TestWebhookBody | null>(null);

  const show = (answer: WidgetConfigBody) => {
    setLoaded(answer);
    setUrl(answer.config.webhook?.url ?? '');
    setRows(rowsOf(answer.config));
  };
  const fetchConfig = () => api<WidgetConfigBody>('GET', `/v1/widget-config/${props.calcId}`);
  // The form appears only once the saved webhook is known, so nothing typed earlier is
  // overwritten when it arrives.
  useEffect(() => {
    fetchConfig().then(show, (error) => setNotice({ kind: 'error', text: messageOf(error) }));
  }, [props.calcId]);

  async function run(work: () => Promise<string>) {
    setBusy(true);
    setNotice(null);
    try {
      setNotice({ kind: 'ok', text: await work() });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setBusy(false);
  }

  const save = () =>
    run(async () => {
      const headers: Record<string, string> = {};
      for (const row of rows) {
        const name = row.name.trim();
        if (!name) continue;
        headers[name] = row.stored && row.value === '' ? REDACTED : row.value;
      }
      show(
        await api<WidgetConfigBody>('PUT', `/v1/widget-config/${props.calcId}`, {
          config: { webhook: { url: url.trim(), headers } },
        }),
      );
      props.onChanged();
      return 'Webhook saved.';
    });

  const remove = () =>
    run(async () => {
      show(await api<WidgetConfigBody>('PUT', `/v1/widget-config/${props.calcId}`, { config: {} }));
      setTested(null);
      props.onChanged();
      return 'Webhook removed.';
    });

  const test = () =>
    run(async () => {
      const result = await api<TestWebhookBody>('POST', `/v1/widget-config/${props.calcId}/test-webhook`);
      setTested(result);
      // Only the last outcome changes: fields being edited stay as they are.
      setLoaded(await fetchConfig());
      return `Test finished: ${result.outcome}.`;
    });

  const status = loaded?.webhookStatus;
  const setRow = (id: number, change: Partial<HeaderRow>) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));

  return (
    <section aria-labelledby="webhook-heading" class="card wide">
      <h2 id="webhook-heading">Pre-fill webhook</h2>
      <p class="hint">
        On every load the server GETs this URL and pre-fills the calculator with the JSON it answers. Header values are
        stored encrypted and never shown again.
      </p>
      {!hasWebhooks(props.account.plan) && (
        <p class="warning">
          The webhook is part of the <strong>{PLAN_NAMES[WEBHOOK_PLAN.plan]}</strong> plan ({WEBHOOK_PLAN.price}); this
          account is on the {PLAN_NAMES[props.account.plan]} plan, so it cannot be saved. Whoever runs this server
          changes plans with <code>{setPlanCommand(props.account.email, WEBHOOK_PLAN.plan)}</code>.
        </p>
      )}
      {loaded === null ? (
        !notice && <p class="hint">Loading the saved webhook…</p>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <label for="webhook-url">Webhook URL</label>
          <input
            id="webhook-url"
            type="url"
            placeholder="https://api.shop.example/prefill"
            value={url}
            onInput={(event) => setUrl(event.currentTarget.value)}
          />
          <fieldset>
            <legend>Headers</legend>
            {rows.length === 0 && <p class="hint">No headers.</p>}
            {rows.map((row, index) => (
              <div class="header-row" key={row.id}>
                <label>
                  Header name
                  <input
                    type="text"
                    value={row.name}
                    autocomplete="off"
                    aria-label={`Header name ${index + 1}`}
                    onInput={(event) => setRow(row.id, { name: event.currentTarget.value })}
                  />
                </label>
                <label>
                  Header value
                  <input
                    type="password"
                    value={row.value}
                    autocomplete="off"
                    placeholder={row.stored ? '(stored)' : ''}
                    aria-label={`Header value ${index + 1}${row.stored ? ' (stored)' : ''}`}
                    onInput={(event) => setRow(row.id, { value: event.currentTarget.value })}
                  />
                </label>
                <button
                  type="button"
                  aria-label={`Remove header ${index + 1}`}
                  onClick={() => setRows((current) => current.filter((other) => other.id !== row.id))}
                >
                  Remove header
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() => setRows((current) => [...current, { id: nextRow++, name: '', value: '', stored: false }])}
            >
              Add header
            </button>
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" disabled={busy} onClick={() => void test()}>
              Test webhook
            </button>
            <button type="button" disabled={busy || !loaded?.config.webhook} onClick={() => void remove()}>
              Remove webhook
            </button>
          </div>
        </form>
      )}
      <Notice notice={notice} />
      {tested && <Outcome title="Test result" result={{ ...tested }} />}
      <h3>Last outcome</h3>
      {status ? (
        <p class="last-outcome">
          <code>{status.outcome}</code> at {formatDateTime(status.at)}
          {status.httpStatus !== null ? `, HTTP ${status.httpStatus}` : ''}, {Math.round(status.durationMs)} ms
        </p>
      ) : (
        <p class="last-outcome">No webhook call yet.</p>
      )}
    </section>
  );
}
