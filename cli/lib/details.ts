/** Label/value lines with the values aligned, for one record shown to a person. */
export function formatDetails(pairs: [label: string, value: string][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length)) + 1;
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${value}`.trimEnd()).join('\n');
}
