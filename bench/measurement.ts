/**
 * The alternating-segment measurement: each target warmed, then loaded in short segments round
 * after round, with the server's CPU time and the machine's stolen time read from /proc.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Pinning } from './cpu-pinning.js';
import { fixed, median } from './report.js';
import type { Settings } from './run-benchmark.js';
import { servers, type ServerProcess } from './server-processes.js';

export const CONNECTIONS = 50;

export interface Tally {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  /** Server CPU (user + system) spent in the segments, when /proc tells it. */
  cpuSeconds: number;
  readonly p99s: number[];
  readonly rpsPerRound: number[];
}

/** Linux's clock ticks per second for /proc times; 100 on every mainstream kernel build. */
const CLOCK_TICKS = 100;

/** CPU seconds a process has used so far, or undefined where /proc is not there to ask. */
export function cpuSecondsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The command name in field 2 may hold spaces; the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Time the hypervisor gave to other guests, as a share of all CPU time, between two readings. */
function machineTimes(): { steal: number; total: number } | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { steal: cpu[7] ?? 0, total: cpu.slice(0, 8).reduce((sum, value) => sum + value, 0) };
  } catch {
    return undefined;
  }
}

/** One thing to load: a URL with its headers, served by `server`. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly server: ServerProcess;
  /**
   * Paths (with query) to go through in turn instead of the URL's own, so a cache in the server
   * cannot answer every request from one entry; a function makes one per request.
   */
  readonly paths?: readonly string[] | ((sequence: number) => string);
  /** A POST with this JSON body, instead of a GET. */
  readonly jsonBody?: string;
}

/** Requests made through path functions so far. */
let requestsMade = 0;

function hit(target: Target, seconds: number): Promise<autocannon.Result> {
  const options: autocannon.Options = {
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds,
  };
  if (target.jsonBody !== undefined)
    Object.assign(options, {
      method: 'POST',
      body: target.jsonBody,
      headers: { ...target.headers, 'content-type': 'application/json' },
    });
  const paths = target.paths;
  if (paths !== undefined) {
    let inSegment = 0;
    // A function's numbers run on across segments, so no later segment repeats an earlier input.
    const nextPath =
      typeof paths === 'function' ? () => paths(requestsMade++) : () => paths[inSegment++ % paths.length]!;
    options.requests = [
      {
        setupRequest: (request) => {
          request.path = nextPath();
          return request;
        },
      },
    ];
  }
  return autocannon(options);
}

function assertAlive(): void {
  for (const server of servers) if (server.exit !== undefined) throw server.failure(`${server.exit} during the run`);
}

export interface Measured {
  readonly target: Target;
  readonly tally: Tally;
  readonly rps: number;
  readonly cpuMicrosPerRequest: number;
  readonly p99Median: number;
  readonly p99Worst: number;
}

export interface Measurement {
  readonly results: readonly Measured[];
  /** Share of all CPU time the hypervisor gave to other guests during the rounds, when /proc tells it. */
  readonly stealShare: number | undefined;
}

/** Prints which CPUs the client and the servers run on, and the load about to be applied. */
export function describeRun(pinning: Pinning, settings: Settings, targetIds: readonly string[]): void {
  console.log(
    pinning.mode === 'pinned'
      ? `CPU pinning: on (autocannon on CPU ${pinning.clientCpu}, servers on CPU ${pinning.serverCpu})`
      : `CPU pinning: off (${pinning.reason}); client and servers share the CPUs`,
  );
  console.log(
    `Load: ${CONNECTIONS} connections, pipelining 1; warm-up ${settings.warmupSeconds} s per target, ` +
      `then ${settings.rounds} rounds of ${targetIds.join(', ')} at ${settings.segmentSeconds} s each`,
  );
}

/**
 * Waits until the server has finished what the segment left it (a queue of barcode decodes, 20 ms
 * each, runs on for a second after the clients stop): until it uses under a fifth of a core over
 * 100 ms, for at most 5 s. Otherwise the next segment, another target's, would pay for it.
 */
async function settle(pid: number | undefined): Promise<void> {
  const deadline = performance.now() + 5000;
  let before = cpuSecondsOf(pid);
  while (before !== undefined && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSecondsOf(pid);
    if (now === undefined || now - before < 0.02) return;
    before = now;
  }
}

/**
 * Warms each target, then loads them in alternating short segments, round after round, so that
 * whatever else the machine does hurts every target alike.
 */
export async function measureRounds(targets: readonly Target[], settings: Settings): Promise<Measurement> {
  for (const target of targets) {
    console.log(`warm-up  ${target.id}  ${target.label}`);
    await hit(target, settings.warmupSeconds);
    assertAlive();
    await settle(target.server.pid);
  }
  const tallies = new Map<string, Tally>(
    targets.map((target) => [
      target.id,
      { ok: 0, non2xx: 0, errors: 0, seconds: 0, cpuSeconds: 0, p99s: [], rpsPerRound: [] },
    ]),
  );
  const labelWidth = Math.max(...targets.map((target) => target.label.length));
  const machineBefore = machineTimes();
  for (let round = 1; round <= settings.rounds; round++) {
    for (const target of targets) {
      const cpuBefore = cpuSecondsOf(target.server.pid);
      const result = await hit(target, settings.segmentSeconds);
      const cpuAfter = cpuSecondsOf(target.server.pid);
      assertAlive();
      await settle(target.server.pid);
      const tally = tallies.get(target.id)!;
      if (cpuBefore !== undefined && cpuAfter !== undefined) tally.cpuSeconds += cpuAfter - cpuBefore;
      tally.rpsPerRound.push(result['2xx'] / result.duration);
      tally.ok += result['2xx'];
      tally.non2xx += result.non2xx;
      tally.errors += result.errors;
      tally.seconds += result.duration;
      tally.p99s.push(result.latency.p99);
      console.log(
        `round ${round}/${settings.rounds}  ${target.id.padEnd(3)} ${target.label.padEnd(labelWidth)}` +
          `${fixed(result['2xx'] / result.duration, 0).padStart(8)} req/s  p99 ${fixed(result.latency.p99, 1).padStart(6)} ms` +
          (result.non2xx + result.errors > 0 ? `  non-2xx ${result.non2xx}  errors ${result.errors}` : ''),
      );
    }
  }
  const machineAfter = machineTimes();
  const results = targets.map((target) => {
    const tally = tallies.get(target.id)!;
    return {
      target,
      tally,
      rps: tally.ok / tally.seconds,
      cpuMicrosPerRequest: tally.cpuSeconds > 0 && tally.ok > 0 ? (tally.cpuSeconds * 1e6) / tally.ok : Number.NaN,
      p99Median: median(tally.p99s),
      p99Worst: Math.max(...tally.p99s),
    };
  });
  const stealShare =
    machineBefore && machineAfter && machineAfter.total > machineBefore.total
      ? (machineAfter.steal - machineBefore.steal) / (machineAfter.total - machineBefore.total)
      : undefined;
  return { results, stealShare };
}

/**
 * One target's throughput relative to another's: the median of the rounds' ratios. A round's
 * segments run back to back, so one round compares the servers under the same conditions, and the
 * median shrugs off a round that a noisy neighbour spoiled.
 */
export const roundRatio = (over: Tally, under: Tally): number =>
  median(over.rpsPerRound.map((rps, i) => rps / under.rpsPerRound[i]!));
