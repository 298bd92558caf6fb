import { expect } from 'chai';

/** One sample line of a Prometheus text exposition. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The Prometheus text format, read strictly: every line a comment of a known kind or a sample, every family typed once. */
export function parseExposition(text: string): Sample[] {
  const typed = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(typed.has(comment[2]!), `${comment[2]} typed twice`).to.equal(false);
        expect(comment[3]).to.be.oneOf(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
        typed.add(comment[2]!);
      }
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `not a sample: ${line}`).to.not.equal(null);
    const labels = Object.fromEntries([...(sample![2] ?? '').matchAll(LABEL)].map((match) => [match[1]!, match[2]!]));
    // A gauge with nothing to average since the last scrape (the event loop's lag, read twice
    // within its sampling interval) is NaN, which Prometheus parses in any letter case.
    const value = /^nan$/i.test(sample![3]!) ? Number.NaN : Number(sample![3]);
    expect(Number.isNaN(value) && !/^nan$/i.test(sample![3]!), `not a number: ${line}`).to.equal(false);
    samples.push({ name: sample![1]!, labels, value });
  }
  return samples;
}

/** The value of the first sample named `name` whose labels include `labels`. */
export const valueOf = (samples: readonly Sample[], name: string, labels: Record<string, string>): number | undefined =>
  samples.find(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

/** The `# TYPE` a family is declared with, if any. */
export const typeOf = (text: string, family: string): string | undefined =>
  new RegExp(`^# TYPE ${family} (\\S+)$`, 'm').exec(text)?.[1];
