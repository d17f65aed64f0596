import type { FunnelReportBody } from '../../src/api-bodies.ts';
import { formatCount } from './quota.ts';
import { formatTable } from './table.ts';

type Funnel = FunnelReportBody['total'];

/** A rate as people read it ("32.0%"); "-" where the step before counted nothing. */
function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)}%`;
}

const cells = (label: string, f: Funnel) => [
  label,
  formatCount(f.views),
  formatCount(f.starts),
  percent(f.rates.viewToStart),
  formatCount(f.completes),
  percent(f.rates.startToComplete),
  formatCount(f.submits),
  percent(f.rates.completeToSubmit),
];

/** `calc usage --funnel`: one row per calculator and a total, each step beside its rate (docs/cli.md). */
export function describeFunnel(body: FunnelReportBody): string {
  const narrowed = [body.calcId && `calculator ${body.calcId}`, body.domain && `on ${body.domain}`].filter(Boolean);
  const scope = `from ${body.from} to ${body.to} (UTC)${narrowed.length > 0 ? `, ${narrowed.join(' ')}` : ''}`;
  if (body.calculators.length === 0)
    return `No funnel steps ${scope}. Widgets report them unless data-analytics="off" (docs/embedding.md).`;
  const headers = ['CALCULATOR', 'VIEWS', 'STARTS', 'STARTED', 'COMPLETES', 'COMPLETED', 'SUBMITS', 'SUBMITTED'];
  const rows = body.calculators.map((c) => cells(c.calcId, c));
  if (body.calculators.length > 1) rows.push(cells('TOTAL', body.total));
  return [
    `Funnel ${scope}:`,
    '',
    formatTable(
      headers,
      rows,
      headers.map((_, i) => i).filter((i) => i > 0),
    ),
    '',
    'STARTED = starts / views, COMPLETED = completes / starts, SUBMITTED = submits / completes; "-" where the step before counted nothing.',
  ].join('\n');
}
