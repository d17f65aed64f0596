import { Flags } from '@oclif/core';
import { OwnerCommand } from '../owner-command.ts';
import type { AccountOverviewBody, UsageReportBody } from '../../src/api-bodies.ts';
import { printable } from '../lib/printable.ts';
import { formatCount, quotaSummary, quotaWarnings } from '../lib/quota.ts';
import { formatTable } from '../lib/table.ts';

const GROUPINGS = ['day', 'calculator', 'domain'] as const;
type Grouping = (typeof GROUPINGS)[number];

export default class Usage extends OwnerCommand {
  static override summary = 'Show widget loads per day, calculator or site, and how the webhook fared.';
  static override description =
    "Days are UTC. The table ends with a total line; this month's quota follows, with a warning from 80 % on and the day the quota runs out at the last 7 days' rate. With --json, stdout holds the body of GET /v1/usage.";
  static override examples = [
    '<%= config.bin %> usage',
    '<%= config.bin %> usage --by calculator --from 2026-11-01',
    '<%= config.bin %> usage --by domain --from 2026-01-01 --to 2026-03-31',
    '<%= config.bin %> usage --json',
  ];
  static override flags = {
    from: Flags.string({ description: 'first day, YYYY-MM-DD (default: 29 days before --to)', helpValue: 'DATE' }),
    to: Flags.string({ description: 'last day, YYYY-MM-DD (default: today, UTC)', helpValue: 'DATE' }),
    by: Flags.string({ description: 'one row per', options: [...GROUPINGS], default: 'day' }),
  };

  async run() {
    const { flags } = await this.parse(Usage);
    const api = this.api(flags);
    const query = new URLSearchParams();
    if (flags.from !== undefined) query.set('from', flags.from);
    if (flags.to !== undefined) query.set('to', flags.to);
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
      g = { label, loads: 0, calls: 0, failed: 0 };
      found.set(label, g);
    }
    return g;
  };
  if (by === 'day') for (const day of daysOf(body.from, body.to)) group(day);
  for (const row of body.rows)
    group(by === 'day' ? row.date : by === 'calculator' ? row.calcId : row.domain).loads += row.loads;
  // Webhook calls belong to a day and a calculator, not to a site.
  if (by !== 'domain') {
    for (const row of body.webhook) {
      const g = group(by === 'day' ? row.date : row.calcId);
      g.calls += row.calls;
      if (row.outcome !== 'ok') g.failed += row.calls;
    }
  }
  const all = [...found.values()];
  // Days in order; calculators and sites by use, the busiest first.
  return by === 'day' ? all : all.sort((a, b) => b.loads - a.loads || (a.label < b.label ? -1 : 1));
}

function share(loads: number, total: number): string {
  return total === 0 ? '' : `${((loads * 100) / total).toFixed(1)}%`;
}

function describe(body: UsageReportBody, by: Grouping, { account, usage: quota }: AccountOverviewBody): string {
  const lines: string[] = [];
  if (body.total === 0 && body.webhook.length === 0) {
    lines.push(`No widget loads from ${body.from} to ${body.to} (UTC).`);
  } else {
    const rows = groups(body, by);
    const withCalls = rows.some((g) => g.calls > 0);
    const first = { day: 'DATE', calculator: 'CALCULATOR', domain: 'DOMAIN' }[by];
    const headers = [
      first,
      'LOADS',
      ...(by === 'day' ? [] : ['SHARE']),
      ...(withCalls ? ['WEBHOOK CALLS', 'FAILED'] : []),
    ];
    const cells = (g: Group) => [
      printable(g.label),
      formatCount(g.loads),
      ...(by === 'day' ? [] : [share(g.loads, body.total)]),
      ...(withCalls ? [formatCount(g.calls), formatCount(g.failed)] : []),
    ];
    const total: Group = {
      label: 'TOTAL',
      loads: body.total,
      calls: rows.reduce((sum, g) => sum + g.calls, 0),
      failed: rows.reduce((sum, g) => sum + g.failed, 0),
    };
    const right = headers.map((_, i) => i).filter((i) => i > 0);
    lines.push(
      `Widget loads from ${body.from} to ${body.to} (UTC), by ${by}:`,
      '',
      formatTable(headers, [...rows.map(cells), cells(total)], right),
    );
  }
  lines.push('', `This month: ${quotaSummary(quota)}.`, ...quotaWarnings(quota, account));
  return lines.join('\n');
}
