import { printable } from './printable.ts';

/**
 * Aligned columns for people; scripts use `--json`. Columns listed in `right` (numbers)
 * are aligned to the right. Every cell goes through `printable`: cells hold text from
 * the server, which must not drive the terminal or break a row in two.
 */
export function formatTable(headers: string[], hostileRows: string[][], right: readonly number[] = []): string {
  const rows = hostileRows.map((row) => row.map(printable));
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        right.includes(i) ? c.padStart(widths[i] ?? 0) : i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
