import { useState } from 'preact/hooks';
import { formatCount } from '../format.ts';
import { useApi } from '../use-api.ts';
import type { FunnelReportBody } from '../../../src/api-bodies.ts';

type Funnel = FunnelReportBody['total'];
type Rate = keyof Funnel['rates'];

/** The steps in order, each with the rate that leads to it from the step before (docs/api.md, "Funnel"). */
const STEPS: { key: 'views' | 'starts' | 'completes' | 'submits'; label: string; rate?: Rate; rateLabel?: string }[] = [
  { key: 'views', label: 'Views' },
  { key: 'starts', label: 'Starts', rate: 'viewToStart', rateLabel: 'Started (of views)' },
  { key: 'completes', label: 'Completes', rate: 'startToComplete', rateLabel: 'Completed (of starts)' },
  { key: 'submits', label: 'Submits', rate: 'completeToSubmit', rateLabel: 'Submitted (of completes)' },
];

/** A rate as owners read it; a dash where the step before counted nothing. */
const formatRate = (rate: number | null): string => (rate === null ? '–' : `${(rate * 100).toFixed(1)} %`);

/**
 * One calculator's funnel as bars, the widest step full width. A picture for sighted
 * readers: the table below holds the same numbers, so the bars are hidden from screen
 * readers (as the loads chart is). Widths are set through the CSSOM, which the
 * dashboard's policy (no inline styles) allows.
 */
function FunnelBars(props: { funnel: Funnel }) {
  const { funnel } = props;
  const widest = Math.max(funnel.views, funnel.starts, funnel.completes, funnel.submits, 1);
  return (
    <div class="funnel" aria-hidden="true">
      {STEPS.map((step) => (
        <div class="funnel-step" key={step.key}>
          <span>{step.label}</span>
          <span class="funnel-track">
            <span class="funnel-bar" style={{ width: `${(funnel[step.key] / widest) * 100}%` }} />
          </span>
          <span class="number">{formatCount(funnel[step.key])}</span>
          <span class="funnel-rate">{step.rate ? formatRate(funnel.rates[step.rate]) : ''}</span>
        </div>
      ))}
    </div>
  );
}

/**
 * The Usage page's funnel: views → starts → completes → submits per calculator over the
 * page's dates, narrowed to one page origin when asked, as bars and as a table.
 */
export function FunnelSection(props: { from: string; to: string; domains: string[] }) {
  const [domain, setDomain] = useState('');
  const query = new URLSearchParams({ from: props.from, to: props.to });
  if (domain) query.set('domain', domain);
  const funnel = useApi<FunnelReportBody>(`/v1/usage/funnel?${query}`);
  const data = funnel.data;
  const rows: [string, Funnel][] = data ? data.calculators.map((c) => [c.calcId, c]) : [];
  if (data && rows.length > 1) rows.push(['All calculators', data.total]);
  return (
    <section aria-labelledby="funnel-heading" class="card">
      <h2 id="funnel-heading">Funnel</h2>
      <p class="hint">
        Views: at least half of a calculator on screen for a second. Starts: the visitor changed a value. Completes: a
        result after that change. Submits: results sent to you. Each rate is a step over the one before it.
      </p>
      <label for="funnel-domain">Domain</label>
      <select
        id="funnel-domain"
        class="funnel-domain"
        value={domain}
        onChange={(event) => setDomain(event.currentTarget.value)}
      >
        <option value="">All domains</option>
        {[...new Set([...props.domains, ...(domain ? [domain] : [])])].sort().map((d) => (
          <option key={d} value={d}>
            {d}
          </option>
        ))}
      </select>
      {funnel.error && <p role="alert">{funnel.error}</p>}
      {data && data.calculators.length === 0 && (
        <p role="status">
          No funnel steps from {data.from} to {data.to}
          {data.domain ? ` on ${data.domain}` : ''}.
        </p>
      )}
      {data && data.calculators.length > 0 && (
        <>
          <div class="grid funnels">
            {data.calculators.map((c) => (
              <div key={c.calcId}>
                <h3>
                  <code>{c.calcId}</code>
                </h3>
                <FunnelBars funnel={c} />
              </div>
            ))}
          </div>
          <div class="table-scroll">
            <table>
              <caption>
                Funnel by calculator, {data.from} to {data.to}
                {data.domain ? `, ${data.domain}` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Calculator</th>
                  {STEPS.map((step) => [
                    <th scope="col" key={step.key}>
                      {step.label}
                    </th>,
                    step.rateLabel && (
                      <th scope="col" key={step.rate}>
                        {step.rateLabel}
                      </th>
                    ),
                  ])}
                </tr>
              </thead>
              <tbody>
                {rows.map(([label, f]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    {STEPS.map((step) => [
                      <td class="number" key={step.key}>
                        {formatCount(f[step.key])}
                      </td>,
                      step.rate && (
                        <td class="number" key={step.rate}>
                          {formatRate(f.rates[step.rate])}
                        </td>
                      ),
                    ])}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
