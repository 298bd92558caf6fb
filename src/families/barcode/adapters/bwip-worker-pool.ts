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

/**
 * bwip-js in worker threads (piscina), so a drawing of 0.4 s holds one worker and not the event
 * loop that answers every other request; images are read (zxing-wasm) by the same workers, for
 * the same reason, queued with the drawings. The workers start with the first task and stay for the
 * next; tasks beyond them wait in a queue of at most `queue` drawings, and a drawing that finds it
 * full is answered `busy` at once rather than waiting without end. A worker that dies fails only
 * its own task and is replaced. `stop` ends them all.
 */
export class BwipWorkerPool implements BwipEngine {
  readonly name = 'barcode drawing workers';
  private pool: Piscina<WorkerTask, WorkerResult> | undefined;
  private submitted = 0;

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
    try {
      return await this.run(task);
    } catch (error) {
      if (!(error instanceof Error && QUEUE_FULL.test(error.message))) throw error;
      return {
        kind: 'busy',
        reason: `all ${this.options.workers} barcode drawing workers are busy and the queue of ${this.options.queue} waiting drawings is full`,
      };
    }
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

  private async run(task: WorkerTask): Promise<WorkerResult> {
    this.pool ??= this.open();
    this.submitted++;
    try {
      return await this.pool.run(task);
    } finally {
      this.submitted--;
    }
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
      resourceLimits: WORKER_HEAP,
    });
    // A worker that fails between tasks fails no drawing, and piscina replaces it; unheard, the
    // event would end the process.
    pool.on('error', () => {});
    return pool;
  }
}
