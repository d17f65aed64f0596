import { useMemo, useState } from 'preact/hooks';
import { api, messageOf } from '../api.ts';
import { Confirm } from '../components/confirm.tsx';
import { DailyLoads } from '../components/daily-loads.tsx';
import { Notice, type NoticeState } from '../components/notice.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { PLAN_NAMES } from '../../../src/plans.ts';
import { daysBetween, formatCount } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { AccountBody, AccountOverviewBody, UsageReportBody } from '../../../src/api-bodies.ts';

function UsageMeter(props: { usage: AccountOverviewBody['usage'] }) {
  const { used, limit, period, percent, runsOutOn } = props.usage;
  const text = `${formatCount(used)} of ${formatCount(limit)} loads`;
  return (
    <section aria-labelledby="usage-heading" class="card">
      <h2 id="usage-heading">This month ({period})</h2>
      <p class="big">{text}</p>
      <meter
        min={0}
        max={limit}
        low={limit * 0.8}
        high={limit * 0.99}
        optimum={0}
        value={Math.min(used, limit)}
        aria-label="Loads used this month"
        aria-valuetext={text}
      />
      {percent >= 100 ? (
        <p class="warning">
          <strong>Quota reached:</strong> 100 % of this month's loads are used. Widgets show "calculator unavailable"
          until the month ends or the plan changes.
        </p>
      ) : percent >= 80 ? (
        <p class="warning">
          <strong>Warning:</strong> {percent} % of this month's loads are used. At 100 % widgets stop loading until the
          month ends.
        </p>
      ) : null}
      <p class="hint">
        {runsOutOn
          ? `Forecast: at the last 7 days' rate the quota runs out on ${runsOutOn} (UTC).`
          : "Forecast: at the last 7 days' rate the quota lasts the month."}
      </p>
    </section>
  );
}

function DailyUsage() {
  const usage = useApi<UsageReportBody>('/v1/usage');
  const chart = useMemo(() => {
    if (!usage.data) return null;
    const days = daysBetween(usage.data.from, usage.data.to);
    const perDay = new Map<string, number>();
    for (const row of usage.data.rows) perDay.set(row.date, (perDay.get(row.date) ?? 0) + row.loads);
    return { days, series: [{ label: 'Loads', values: days.map((day) => perDay.get(day) ?? 0) }] };
  }, [usage.data]);
  return (
    <section aria-labelledby="daily-heading" class="card wide">
      <h2 id="daily-heading">Daily loads, last 30 days</h2>
      {usage.error && <p role="alert">{usage.error}</p>}
      {chart && <DailyLoads caption="Daily loads" days={chart.days} series={chart.series} />}
    </section>
  );
}

function ApiKey(props: { apiKey: string; onRotated: (apiKey: string) => void }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.apiKey);
      setNotice({ kind: 'ok', text: 'API key copied.' });
    } catch {
      setNotice({ kind: 'error', text: 'Copying is blocked here: select the key and copy it by hand.' });
    }
  }
  async function rotate() {
    setBusy(true);
    try {
      const { account } = await api<AccountBody>('POST', '/v1/account/rotate-api-key');
      props.onRotated(account.apiKey);
      setNotice({ kind: 'ok', text: 'New API key created. The old key stopped working: update your embed snippets.' });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    setBusy(false);
    setAsking(false);
  }
  return (
    <section aria-labelledby="key-heading" class="card">
      <h2 id="key-heading">API key</h2>
      <p class="hint">
        Public: it goes into your pages' embed snippets. Your registered domains decide who may use it.
      </p>
      <p>
        <code class="key" id="api-key">
          {props.apiKey}
        </code>
      </p>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={() => setAsking(true)}>
          Rotate key
        </button>
      </div>
      <Notice notice={notice} />
      {asking && (
        <Confirm
          title="Rotate the API key?"
          confirmLabel="Rotate"
          busy={busy}
          onConfirm={rotate}
          onClose={() => setAsking(false)}
        >
          <p>
            The current key stops working at once: every page that embeds it shows "calculator unavailable" until its
            snippet has the new key.
          </p>
        </Confirm>
      )}
    </section>
  );
}

export function Overview() {
  const overview = useApi<AccountOverviewBody>('/v1/account');
  const data = overview.data;
  return (
    <>
      <PageTitle>Overview</PageTitle>
      {overview.error && <p role="alert">{overview.error}</p>}
      {data && (
        <div class="grid">
          <section aria-labelledby="plan-heading" class="card">
            <h2 id="plan-heading">Plan</h2>
            <p class="big">{PLAN_NAMES[data.account.plan]}</p>
            <p class="hint">
              Signed in as {data.account.email}. Whoever runs this server changes plans with{' '}
              <code>calc admin accounts set-plan</code>.
            </p>
          </section>
          <UsageMeter usage={data.usage} />
          <ApiKey
            apiKey={data.account.apiKey}
            onRotated={(apiKey) => overview.set({ ...data, account: { ...data.account, apiKey } })}
          />
          <DailyUsage />
        </div>
      )}
    </>
  );
}
