import { invalidRequest } from '../errors.ts';
import { DAY_MS } from '../usage/counter.ts';

/** A UTC day as queries take it: `YYYY-MM-DD` (whether it is a real date is `realDay`'s). */
export const DAY_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** Days since 1970-01-01 of a `YYYY-MM-DD` that names a real date, else null. */
export function dayNumber(day: string): number | null {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) return null;
  return ms / DAY_MS;
}

/** `dayNumber`, or 400 naming `field`. */
export function realDay(field: 'from' | 'to', day: string): number {
  const n = dayNumber(day);
  if (n === null) throw invalidRequest(`${field} must be a real date as YYYY-MM-DD; ${day} is not one.`);
  return n;
}

/** 400 when the range runs backwards. */
export function checkOrder(from: { day: string; n: number }, to: { day: string; n: number }): void {
  if (from.n > to.n) throw invalidRequest(`from (${from.day}) must not be after to (${to.day}).`);
}

/** The start of day `n` (days since 1970-01-01) as an ISO-8601 time. */
export const startOfDay = (n: number): string => new Date(n * DAY_MS).toISOString();
