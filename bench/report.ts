/**
 * The numbers as a run prints them: medians, fixed-width tables, the results of a measurement and
 * the verdict on a target.
 */
import type { Measurement } from './measurement.js';

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const fixed = (value: number, digits: number): string =>
  Number.isFinite(value) ? value.toFixed(digits) : 'n/a';

export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    )
    .join('\n');
}

export function printResults({ results, stealShare }: Measurement): void {
  console.log('');
  console.log(
    table([
      ['target', '2xx total', 'req/s', 'server CPU µs/req', 'p99 ms median', 'p99 ms worst', 'non-2xx', 'conn errors'],
      ...results.map(({ target, tally, rps, cpuMicrosPerRequest, p99Median, p99Worst }) => [
        `${target.id}  ${target.label}`,
        String(tally.ok),
        fixed(rps, 0),
        fixed(cpuMicrosPerRequest, 1),
        fixed(p99Median, 1),
        fixed(p99Worst, 1),
        String(tally.non2xx),
        String(tally.errors),
      ]),
    ]),
  );
  if (stealShare !== undefined)
    console.log(`\nCPU stolen by the hypervisor during the rounds: ${fixed(stealShare * 100, 1)}%`);
}

export const verdict = (ok: boolean): string => (ok ? 'MET   ' : 'MISSED');
