/**
 * A benchmark's main: its settings from the environment (BENCH_*), its exit code, and the clean-up
 * of its servers and folders on every path out. See bench/README.md.
 */
import process from 'node:process';
import { cleanUp, ServerFailure } from './server-processes.js';

const MAX_ROUNDS = 1_000;
const MAX_SECONDS = 3_600;

/** A BENCH_* variable that is not a usable number. */
class SettingsError extends Error {}

export interface Settings {
  readonly warmupSeconds: number;
  readonly segmentSeconds: number;
  readonly rounds: number;
}

function positiveNumber(name: string, fallback: number, max: number, integer: boolean): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > max || (integer && !Number.isInteger(value))) {
    throw new SettingsError(`${name} must be a positive ${integer ? 'integer' : 'number'} up to ${max}, got "${raw}"`);
  }
  return value;
}

const readSettings = (): Settings => ({
  warmupSeconds: positiveNumber('BENCH_WARMUP_SECONDS', 3, MAX_SECONDS, false),
  segmentSeconds: positiveNumber('BENCH_SEGMENT_SECONDS', 3, MAX_SECONDS, false),
  rounds: positiveNumber('BENCH_ROUNDS', 10, MAX_ROUNDS, true),
});

/** Runs a benchmark's main: exit code 2 for bad settings, 1 when a server failed, and always cleans up. */
export async function runBenchmark(main: (settings: Settings) => Promise<void>): Promise<never> {
  let exitCode = 0;
  try {
    await main(readSettings());
  } catch (error) {
    const settingsProblem = error instanceof SettingsError;
    process.stderr.write(
      `bench: ${error instanceof ServerFailure || settingsProblem ? error.message : ((error as Error).stack ?? String(error))}\n`,
    );
    exitCode = settingsProblem ? 2 : 1;
  }
  await cleanUp();
  process.exit(exitCode);
}
