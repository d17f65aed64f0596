/** Numbers and dates as owners read them; dates stay in UTC like the quota periods. */
const integer = new Intl.NumberFormat('en');

export const formatCount = (value: number): string => integer.format(value);

/** YYYY-MM-DD of a Date, in UTC. */
export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** Every day from `from` to `to` (inclusive), as YYYY-MM-DD. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= end && days.length <= 400; at += 86_400_000) {
    days.push(isoDay(new Date(at)));
  }
  return days;
}

export const formatDateTime = (iso: string): string =>
  `${new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC`;
