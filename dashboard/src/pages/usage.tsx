import { useMemo, useState } from 'preact/hooks';
import { DailyLoads } from '../components/daily-loads.tsx';
import { FunnelSection } from '../components/funnel.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { daysBetween, formatCount, isoDay } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { UsageReportBody } from '../../../src/api-bodies.ts';
import { LimitsForm } from './limits-form.tsx';

type Grouping = 'day' | 'calculator' | 'domain';

const MAX_SERIES = 6;

function defaultRange(): { from: string; to: string } {
  const today = new Date();
  return { from: isoDay(new Date(today.getTime() - 29 * 86_400_000)), to: isoDay(today) };
}

/** Loads per day for each group (the biggest few; the rest together as "Other"). */
function seriesOf(usage: UsageReportBody, days: string[], by: Grouping) {
  if (by === 'day') {
    const perDay = new Map<string, number>();
    for (const row of usage.rows) perDay.set(row.date, (perDay.get(row.date) ?? 0) + row.loads);
    return [{ label: 'Loads', values: days.map((day) => perDay.get(day) ?? 0) }];
  }
  const keyOf = (row: UsageReportBody['rows'][number]) => (by === 'calculator' ? row.calcId : row.domain);
  const totals = totalsBy(usage, by);
  const shown = totals.slice(0, MAX_SERIES - 1).map(([key]) => key);
  const index = new Map(days.map((day, i) => [day, i]));
  const series = new Map<string, number[]>(shown.map((key) => [key, days.map(() => 0)]));
  const other = days.map(() => 0);
  for (const row of usage.rows) {
    const at = index.get(row.date);
    if (at === undefined) continue;
    const values = series.get(keyOf(row)) ?? other;
    values[at] = (values[at] ?? 0) + row.loads;
  }
  const result = [...series].map(([label, values]) => ({ label, values }));
  if (totals.length > shown.length) result.push({ label: 'Other', values: other });
  return result;
}

type Refusal = UsageReportBody['refused'][number]['reason'];
type Skip = UsageReportBody['skipped'][number]['reason'];

/** What each refusal means for the visitor turned away (docs/api.md, "Usage history"). */
const REFUSALS: Record<Refusal, string> = {
  rate_limited: 'too many calls from one address (the per-client limit)',
  cap_reached: 'over one of your daily caps (Limits, below)',
  quota_exceeded: "this month's quota was used up",
  domain_not_registered: 'the page is not on your domain list',
  domain_pending: 'the page asked to be added and waits for your approval',
  origin_mismatch: "the page's domain differs from the origin its browser sent",
};

const SKIPS: Record<Skip, string> = {
  busy: 'too many calls to your webhook at once',
  capped: 'over your pulls a second (Limits, below)',
};

/** Counts per reason, the most frequent first. */
function totalsByReason<R extends string>(rows: { reason: R; count: number }[]): [R, number][] {
  const totals = new Map<R, number>();
  for (const row of rows) totals.set(row.reason, (totals.get(row.reason) ?? 0) + row.count);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** A table of counts by reason, each with what it means. */
function ReasonTable<R extends string>(props: {
  caption: string;
  rows: { reason: R; count: number }[];
  meaning: Record<R, string>;
}) {
  const totals = totalsByReason(props.rows);
  if (totals.length === 0) return null;
  return (
    <div class="table-scroll">
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col">Meaning</th>
            <th scope="col">Count</th>
          </tr>
        </thead>
        <tbody>
          {totals.map(([reason, count]) => (
            <tr key={reason}>
              <th scope="row">
                <code>{reason}</code>
              </th>
              <td>{props.meaning[reason]}</td>
              <td class="number">{formatCount(count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function totalsBy(usage: UsageReportBody, by: 'calculator' | 'domain'): [string, number][] {
  const totals = new Map<string, number>();
  for (const row of usage.rows) {
    const key = by === 'calculator' ? row.calcId : row.domain;
    totals.set(key, (totals.get(key) ?? 0) + row.loads);
  }
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export function Usage() {
  const [range, setRange] = useState(defaultRange);
  const [draft, setDraft] = useState(range);
  const [by, setBy] = useState<Grouping>('day');
  const usage = useApi<UsageReportBody>(`/v1/usage?from=${range.from}&to=${range.to}`);
  const data = usage.data;
  const days = useMemo(() => (data ? daysBetween(data.from, data.to) : []), [data]);
  const series = useMemo(() => (data ? seriesOf(data, days, by) : []), [data, days, by]);
  // The origins the funnel can be narrowed to: those with a step in the range.
  const funnelDomains = useMemo(() => [...new Set(data?.funnel.map((row) => row.domain))], [data]);
  const webhookTotals = useMemo(() => {
    const totals = new Map<string, number>();
    for (const row of data?.webhook ?? []) totals.set(row.outcome, (totals.get(row.outcome) ?? 0) + row.calls);
    return [...totals].sort((a, b) => b[1] - a[1]);
  }, [data]);
  return (
    <>
      <PageTitle>Usage</PageTitle>
      <form
        class="inline card"
        onSubmit={(event) => {
          event.preventDefault();
          setRange(draft);
        }}
      >
        <label for="usage-from">From</label>
        <input
          id="usage-from"
          type="date"
          required
          value={draft.from}
          onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
        />
        <label for="usage-to">To</label>
        <input
          id="usage-to"
          type="date"
          required
          value={draft.to}
          onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
        />
        <button type="submit" class="primary">
          Show
        </button>
        <label for="usage-by">Group by</label>
        <select id="usage-by" value={by} onChange={(event) => setBy(event.currentTarget.value as Grouping)}>
          <option value="day">Day</option>
          <option value="calculator">Calculator</option>
          <option value="domain">Domain</option>
        </select>
      </form>
      {usage.error && <p role="alert">{usage.error}</p>}
      {data && (
        <>
          <p class="big" role="status">
            {formatCount(data.total)} loads from {data.from} to {data.to}
          </p>
          <DailyLoads caption={by === 'day' ? 'Loads per day' : `Loads per day by ${by}`} days={days} series={series} />
          {by !== 'day' && (
            <div class="table-scroll">
              <table>
                <caption>Loads by {by}</caption>
                <thead>
                  <tr>
                    <th scope="col">{by === 'calculator' ? 'Calculator' : 'Domain'}</th>
                    <th scope="col">Loads</th>
                  </tr>
                </thead>
                <tbody>
                  {totalsBy(data, by).map(([key, loads]) => (
                    <tr key={key}>
                      <th scope="row">
                        <code>{key}</code>
                      </th>
                      <td class="number">{formatCount(loads)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <FunnelSection from={data.from} to={data.to} domains={funnelDomains} />
          {webhookTotals.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption>Webhook calls by outcome</caption>
                <thead>
                  <tr>
                    <th scope="col">Outcome</th>
                    <th scope="col">Calls</th>
                  </tr>
                </thead>
                <tbody>
                  {webhookTotals.map(([outcome, calls]) => (
                    <tr key={outcome}>
                      <th scope="row">
                        <code>{outcome}</code>
                      </th>
                      <td class="number">{formatCount(calls)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <ReasonTable caption="Widget calls refused, by reason" rows={data.refused} meaning={REFUSALS} />
          <ReasonTable caption="Webhook pulls skipped (no call made)" rows={data.skipped} meaning={SKIPS} />
        </>
      )}
      <LimitsForm />
    </>
  );
}
