import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import type { BwipDrawn, BwipEngine, BwipSymbol, BwipTask } from './bwip-engine.js';

export interface BwipWorkerPoolOptions {
  /** Worker threads drawing at once. */
  readonly workers: number;
  /** Drawings waiting for a worker beyond those being drawn; one more is answered `busy`. */
  readonly queue: number;
}

/** A code as ZXing read it: its format's name (`QRCode`, `EAN13`), its text and its corners. */
export interface ZxingCode {
  readonly format: string;
  readonly text: string;
  readonly position: Readonly<
    Record<'topLeft' | 'topRight' | 'bottomRight' | 'bottomLeft', { readonly x: number; readonly y: number }>
  >;
}

/** What reading an image in a worker gave: the codes found, or why the file is no picture; `busy` as for a drawing. */
export type ZxingRead =
  | { readonly kind: 'decoded'; readonly codes: readonly ZxingCode[] }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'busy'; readonly reason: string };

/** What a worker is asked: the symbol list, a drawing, or an image to read. draw-worker.js answers all three. */
type WorkerTask =
  | { readonly kind: 'symbols' }
  | ({ readonly kind: 'draw' } & BwipTask)
  | { readonly kind: 'decode'; readonly image: Uint8Array };
type WorkerResult = { readonly kind: 'symbols'; readonly symbols: readonly BwipSymbol[] } | BwipDrawn | ZxingRead;

/**
 * The worker's entry is plain JavaScript beside this file, in src/ under the test run and in dist/
 * once built (the build copies it): a worker does not get tsx's hooks, so it could not load this
 * TypeScript.
 */
const DRAW_WORKER = new URL('./draw-worker.js', import.meta.url);

/**
 * A worker's heap, smaller than V8's default so that it collects bwip-js's garbage sooner: 40
 * fresh 1 KB Aztec codes left the process 30 MB larger without it. The largest drawings the
 * default limits allow (1 KB at scale 10, 2.5 million pixels) need well under it; a worker that
 * runs out fails its drawing and the next one starts afresh. A young generation of 2 MB rather
 * than 8 leaves the warm pool 2 MB smaller and kept 40 Aztec codes within about 45 MB rather than
 * 50 to 70, for about 2 % more drawing time.
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 2 } as const;

/** How piscina refuses a task when its queue is full (`maxQueue`), or when it has none (0). */
const QUEUE_FULL = /^(Task queue is at limit|No task queue available)/;

/** How piscina fails the tasks a worker held when it died: it exited, or ran out of its heap. */
const WORKER_DIED = /^worker exited with code|memory limit/i;

/**
 * Tasks a worker is handed before it has finished the one it draws: it takes the next from its
 * own port the moment it is done, instead of waiting for the event loop to come round, read its
 * answer and hand it the next. Under the mixed bench's load (bench/mixed.ts, 50 connections, one
 * request in 20 a fresh barcode), with one at a time the worker drew one barcode per turn of the
 * busy event loop: it sat idle 77 % of the time, fresh barcodes waited 193 ms (p50) and the
 * requests' p99 was 212 ms; with 4, 22 ms and 34 ms (2026-11-27, same machine, same hour).
 */
const TASKS_IN_HAND = 4;

/**
 * bwip-js in worker threads (piscina), so a drawing of 0.4 s holds one worker and not the event
 * loop that answers every other request; images are read (zxing-wasm) by the same workers, for
 * the same reason, queued with the drawings. The workers start with the first task and stay for the
 * next; tasks beyond them wait in a queue of at most `queue` drawings (some of them already handed
 * to a worker, see TASKS_IN_HAND), and a drawing that finds it full is answered `busy` at once
 * rather than waiting without end. A worker that dies fails only the task it was drawing and is
 * replaced; the others it held are handed out again. `stop` ends them all.
 */
export class BwipWorkerPool implements BwipEngine {
  readonly name = 'barcode drawing workers';
  private pool: Piscina<WorkerTask, WorkerResult> | undefined;
  private submitted = 0;
  /** Each task's number, in the order they were given to piscina. */
  private given = 0;
  /** The numbers of the tasks one worker's death failed, by the error piscina failed them all with. */
  private readonly failedTogether = new WeakMap<Error, number[]>();

  constructor(
    private readonly options: BwipWorkerPoolOptions,
    private readonly entry: URL = DRAW_WORKER,
  ) {}

  async symbols(): Promise<readonly BwipSymbol[]> {
    // Asked once per renderer, before its first drawing, so the queue is empty and never refuses it.
    const result = await this.run({ kind: 'symbols' });
    if (result.kind !== 'symbols') throw new TypeError(`a drawing worker answered ${result.kind} for the symbol list`);
    return result.symbols;
  }

  async draw(task: BwipTask): Promise<BwipDrawn> {
    const result = await this.runOrBusy({ kind: 'draw', ...task });
    if (result.kind === 'symbols' || result.kind === 'decoded' || result.kind === 'unreadable')
      throw new TypeError(`a drawing worker answered ${result.kind} for a drawing`);
    return result;
  }

  /** Reads the codes in a PNG or JPEG file with zxing-wasm, in a worker like a drawing, queued with them. */
  async decode(image: Uint8Array): Promise<ZxingRead> {
    const result = await this.runOrBusy({ kind: 'decode', image });
    if (result.kind !== 'decoded' && result.kind !== 'unreadable' && result.kind !== 'busy')
      throw new TypeError(`a drawing worker answered ${result.kind} for an image to read`);
    return result;
  }

  private async runOrBusy(task: WorkerTask): Promise<WorkerResult> {
    // Counted here rather than by piscina's queue alone, which does not hold the tasks handed to workers.
    if (this.submitted >= this.options.workers + this.options.queue) return this.busy();
    try {
      return await this.run(task);
    } catch (error) {
      if (!(error instanceof Error && QUEUE_FULL.test(error.message))) throw error;
      return this.busy();
    }
  }

  private busy(): WorkerResult {
    return {
      kind: 'busy',
      reason: `all ${this.options.workers} barcode drawing workers are busy and the queue of ${this.options.queue} waiting drawings is full`,
    };
  }

  /** Workers running now and drawings waiting, for tests and diagnostics. */
  get size(): { readonly workers: number; readonly busy: number; readonly waiting: number } {
    const waiting = this.pool?.queueSize ?? 0;
    return { workers: this.pool?.threads.length ?? 0, busy: this.submitted - waiting, waiting };
  }

  start(): void {
    // Nothing to start: workers start with the first drawing, so a server that draws none pays nothing.
  }

  /** Ends every worker; tasks still waiting or being drawn are failed. */
  async stop(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private async run(task: WorkerTask, again = false): Promise<WorkerResult> {
    this.pool ??= this.open();
    const pool = this.pool;
    const number = this.given++;
    this.submitted++;
    try {
      return await pool.run(task);
    } catch (error) {
      if (again || this.pool !== pool || !(error instanceof Error && WORKER_DIED.test(error.message))) throw error;
      // A worker takes its tasks in the order given, one at a time, so of those its death failed
      // (with one error) it was drawing the first; the others had not started. Once every one of
      // them has been told (the failures come in one go, before the next turn), only that one fails.
      const together = this.failedTogether.get(error) ?? [];
      together.push(number);
      this.failedTogether.set(error, together);
      await new Promise((resolve) => setImmediate(resolve));
      if (number === Math.min(...together)) throw error;
    } finally {
      this.submitted--;
    }
    return this.run(task, true);
  }

  private open(): Piscina<WorkerTask, WorkerResult> {
    // Loaded with the first drawing, as the pool is: a server that draws no barcode starts without
    // piscina (16 ms and 9 MB of RSS measured here at start).
    const { Piscina: Pool } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
    const pool = new Pool<WorkerTask, WorkerResult>({
      filename: this.entry.href,
      // Created on the first task with all its workers, which stay: with fewer than `workers`
      // kept (minThreads), a worker that dies leaves the tasks waiting for it until another comes.
      minThreads: this.options.workers,
      maxThreads: this.options.workers,
      idleTimeout: Infinity,
      maxQueue: this.options.queue,
      // Without it a task taken from the queue when no worker is free goes back at its tail, not
      // its head: with 4 clients on one worker, a drawing waited 12 s where 2 would do.
      stricterFIFO: true,
      concurrentTasksPerWorker: TASKS_IN_HAND,
      resourceLimits: WORKER_HEAP,
    });
    // A worker that fails between tasks fails no drawing, and piscina replaces it; unheard, the
    // event would end the process.
    pool.on('error', () => {});
    return pool;
  }
}
