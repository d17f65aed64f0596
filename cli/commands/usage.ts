import { Flags } from '@oclif/core';
import { OwnerCommand } from '../owner-command.ts';
import type { AccountOverviewBody, FunnelReportBody, UsageReportBody } from '../../src/api-bodies.ts';
import { describeFunnel } from '../lib/funnel-view.ts';
import { printable } from '../lib/printable.ts';
import { formatCount, quotaSummary, quotaWarnings } from '../lib/quota.ts';
import { formatTable } from '../lib/table.ts';

const GROUPINGS = ['day', 'calculator', 'domain'] as const;
type Grouping = (typeof GROUPINGS)[number];

export default class Usage extends OwnerCommand {
  static override summary =
    'Show widget loads per day, calculator or site, how the webhook fared, and calls turned away.';
  static override description =
    "Days are UTC. The table ends with a total line; refused widget calls (by reason: a rate limit, your caps, the quota, an origin not on your list) and skipped webhook pulls follow, then this month's quota, with a warning from 80 % on and the day the quota runs out at the last 7 days' rate. With --json, stdout holds the body of GET /v1/usage.\n\nWith --funnel: views, starts, completes and submits per calculator, each with its rate over the step before it (narrowed by --calc and --domain); with --json, the body of GET /v1/usage/funnel.";
  static override examples = [
    '<%= config.bin %> usage',
    '<%= config.bin %> usage --by calculator --from 2026-11-01',
    '<%= config.bin %> usage --by domain --from 2026-01-01 --to 2026-03-31',
    '<%= config.bin %> usage --json',
    '<%= config.bin %> usage --funnel',
    '<%= config.bin %> usage --funnel --calc bmi --domain https://shop.example --from 2026-11-01',
  ];
  static override flags = {
    from: Flags.string({ description: 'first day, YYYY-MM-DD (default: 29 days before --to)', helpValue: 'DATE' }),
    to: Flags.string({ description: 'last day, YYYY-MM-DD (default: today, UTC)', helpValue: 'DATE' }),
    by: Flags.string({ description: 'one row per', options: [...GROUPINGS], default: 'day' }),
    funnel: Flags.boolean({ description: 'views, starts, completes and submits per calculator, with rates' }),
    calc: Flags.string({ description: 'with --funnel: only this calculator', helpValue: 'ID', dependsOn: ['funnel'] }),
    domain: Flags.string({
      description: 'with --funnel: only this page origin',
      helpValue: 'ORIGIN',
      dependsOn: ['funnel'],
    }),
  };

  async run() {
    const { flags } = await this.parse(Usage);
    const api = this.api(flags);
    const query = new URLSearchParams();
    if (flags.from !== undefined) query.set('from', flags.from);
    if (flags.to !== undefined) query.set('to', flags.to);
    if (flags.funnel) {
      if (flags.calc !== undefined) query.set('calcId', flags.calc);
      if (flags.domain !== undefined) query.set('domain', flags.domain);
      const { body } = await api.get<FunnelReportBody>(`/v1/usage/funnel${query.size > 0 ? `?${query}` : ''}`);
      if (!this.jsonEnabled()) this.log(describeFunnel(body));
      return body;
    }
    const { body } = await api.get<UsageReportBody>(`/v1/usage${query.size > 0 ? `?${query}` : ''}`);
    if (!this.jsonEnabled()) {
      const { body: account } = await api.get<AccountOverviewBody>('/v1/account');
      this.log(describe(body, flags.by as Grouping, account));
    }
    return body;
  }
}

interface Group {
  label: string;
  loads: number;
  calls: number;
  failed: number;
  refused: number;
  skipped: number;
}

/** Every day of the range, so a day without loads shows as 0 rather than as a gap. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let ms = Date.parse(`${from}T00:00:00Z`); ms <= Date.parse(`${to}T00:00:00Z`); ms += 86_400_000)
    days.push(new Date(ms).toISOString().slice(0, 10));
  return days;
}

function groups(body: UsageReportBody, by: Grouping): Group[] {
  const found = new Map<string, Group>();
  const group = (label: string): Group => {
    let g = found.get(label);
    if (!g) {
      g = { label, loads: 0, calls: 0, failed: 0, refused: 0, skipped: 0 };
      found.set(label, g);
    }
    return g;
  };
  if (by === 'day') for (const day of daysOf(body.from, body.to)) group(day);
  for (const row of body.rows)
    group(by === 'day' ? row.date : by === 'calculator' ? row.calcId : row.domain).loads += row.loads;
  // Webhook calls, skipped pulls and refusals belong to a day and a calculator, not to a site.
  if (by !== 'domain') {
    for (const row of body.webhook) {
      const g = group(by === 'day' ? row.date : row.calcId);
      g.calls += row.calls;
      if (row.outcome !== 'ok') g.failed += row.calls;
    }
    for (const row of body.skipped) group(by === 'day' ? row.date : row.calcId).skipped += row.count;
    for (const row of body.refused) group(by === 'day' ? row.date : row.calcId).refused += row.count;
  }
  const all = [...found.values()];
  // Days in order; calculators and sites by use, the busiest first.
  return by === 'day' ? all : all.sort((a, b) => b.loads - a.loads || (a.label < b.label ? -1 : 1));
}

function share(loads: number, total: number): string {
  return total === 0 ? '' : `${((loads * 100) / total).toFixed(1)}%`;
}

/** "8 (cap_reached 5, rate_limited 3)": a total and its reasons, the most frequent first. */
function byReason(rows: { reason: string; count: number }[]): string {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.reason, (totals.get(row.reason) ?? 0) + row.count);
  const sorted = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  return `${formatCount(total)} (${sorted.map(([reason, n]) => `${reason} ${formatCount(n)}`).join(', ')})`;
}

function describe(body: UsageReportBody, by: Grouping, { account, usage: quota }: AccountOverviewBody): string {
  const lines: string[] = [];
  if (body.total === 0 && body.webhook.length + body.refused.length + body.skipped.length === 0) {
    lines.push(`No widget loads from ${body.from} to ${body.to} (UTC).`);
  } else {
    const rows = groups(body, by);
    const withCalls = rows.some((g) => g.calls > 0);
    const withRefused = rows.some((g) => g.refused > 0);
    const withSkipped = rows.some((g) => g.skipped > 0);
    const first = { day: 'DATE', calculator: 'CALCULATOR', domain: 'DOMAIN' }[by];
    const headers = [
      first,
      'LOADS',
      ...(by === 'day' ? [] : ['SHARE']),
      ...(withRefused ? ['REFUSED'] : []),
      ...(withCalls ? ['WEBHOOK CALLS', 'FAILED'] : []),
      ...(withSkipped ? ['SKIPPED PULLS'] : []),
    ];
    const cells = (g: Group) => [
      printable(g.label),
      formatCount(g.loads),
      ...(by === 'day' ? [] : [share(g.loads, body.total)]),
      ...(withRefused ? [formatCount(g.refused)] : []),
      ...(withCalls ? [formatCount(g.calls), formatCount(g.failed)] : []),
      ...(withSkipped ? [formatCount(g.skipped)] : []),
    ];
    const sum = (key: 'calls' | 'failed' | 'refused' | 'skipped') => rows.reduce((n, g) => n + g[key], 0);
    const total: Group = {
      label: 'TOTAL',
      loads: body.total,
      calls: sum('calls'),
      failed: sum('failed'),
      refused: sum('refused'),
      skipped: sum('skipped'),
    };
    const right = headers.map((_, i) => i).filter((i) => i > 0);
    lines.push(
      `Widget loads from ${body.from} to ${body.to} (UTC), by ${by}:`,
      '',
      formatTable(headers, [...rows.map(cells), cells(total)], right),
    );
  }
  // Visitors turned away and pulls not made: what an owner's limits (or the per-client ones) cost.
  const notes = [
    ...(body.refused.length > 0 ? [`Refused widget calls: ${byReason(body.refused)}.`] : []),
    ...(body.skipped.length > 0 ? [`Skipped webhook pulls (no call made): ${byReason(body.skipped)}.`] : []),
  ];
  if (notes.length > 0) lines.push('', ...notes);
  lines.push('', `This month: ${quotaSummary(quota)}.`, ...quotaWarnings(quota, account));
  return lines.join('\n');
}
