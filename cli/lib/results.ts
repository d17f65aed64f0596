import { Flags } from '@oclif/core';
import type { ResultJson } from '../../src/api-bodies.ts';
import { formatDetails } from './details.ts';
import { formatTable } from './table.ts';

/** The filters `calc results` and `calc results export` share, as the routes name them. */
export const resultFilterFlags = {
  from: Flags.string({ description: 'from this UTC day, YYYY-MM-DD' }),
  to: Flags.string({ description: 'up to this UTC day (inclusive), YYYY-MM-DD' }),
  calc: Flags.string({ description: 'only this calculator (its id)' }),
  domain: Flags.string({ description: "only this page's origin, e.g. https://shop.example" }),
  email: Flags.string({
    description: "only results with this contact email (case-blind): one person's, for their request",
  }),
  visitor: Flags.string({ description: "only this visitor's results (the sub of their context token)" }),
};

type FilterValues = { [K in keyof typeof resultFilterFlags]?: string };

/** The query string of the filters given. */
export function filterQuery(flags: FilterValues): URLSearchParams {
  const query = new URLSearchParams();
  const names: [keyof FilterValues, string][] = [
    ['from', 'from'],
    ['to', 'to'],
    ['calc', 'calcId'],
    ['domain', 'domain'],
    ['email', 'email'],
    ['visitor', 'visitor'],
  ];
  for (const [flag, param] of names) {
    const value = flags[flag];
    if (value !== undefined) query.set(param, value);
  }
  return query;
}

/** The ID argument's value, checked before it goes into a URL path. */
export const resultPath = (id: string): string => `/v1/results/${encodeURIComponent(id)}`;

const contactOf = (result: ResultJson) =>
  [result.contact.name, result.contact.email].filter((part) => part !== undefined).join(' ') || '—';

export function resultsTable(results: ResultJson[]): string {
  return formatTable(
    ['CREATED', 'ID', 'CALCULATOR', 'DOMAIN', 'CONTACT', 'VISITOR'],
    results.map((r) => [r.createdAt, r.id, r.calcId, r.domain, contactOf(r), r.visitor ?? '—']),
  );
}

const pairsOf = (record: Record<string, unknown>): string =>
  Object.entries(record)
    .map(([key, value]) => `${key}=${value === null ? '—' : String(value)}`)
    .join(', ') || '—';

/** One result as a person reads it. */
export function describeResult(result: ResultJson): string {
  return formatDetails([
    ['ID', result.id],
    ['Created', result.createdAt],
    ['Calculator', result.calcId],
    ['Domain', result.domain],
    ['Page', result.page ?? '—'],
    ['UTM', pairsOf(result.utm)],
    ['Units', result.units],
    ['Inputs', pairsOf(result.inputs)],
    ['Outputs', pairsOf(result.outputs)],
    ['Email', result.contact.email ?? '—'],
    ['Name', result.contact.name ?? '—'],
    ['Visitor', result.visitor ?? '—'],
    ['Consent', result.consent ? `"${result.consent.text}" (${result.consent.locale}) at ${result.consent.at}` : '—'],
    ['Pre-filled', pairsOf(result.prefill)],
  ]);
}
