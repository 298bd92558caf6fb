import { Worker } from 'node:worker_threads';
import type { BwipDrawn, BwipEngine, BwipSymbol, BwipTask } from './bwip-engine.js';

export interface BwipWorkerPoolOptions {
  /** Worker threads drawing at once. */
  readonly workers: number;
  /** Drawings waiting for a worker beyond those being drawn; one more is answered `busy`. */
  readonly queue: number;
}

/** What a worker is asked: the symbol list, or a drawing. draw-worker.js answers both. */
type WorkerTask = { readonly kind: 'symbols' } | ({ readonly kind: 'draw' } & BwipTask);
type WorkerResult = { readonly kind: 'symbols'; readonly symbols: readonly BwipSymbol[] } | BwipDrawn;
type WorkerReply =
  { readonly id: number; readonly result: WorkerResult } | { readonly id: number; readonly failure: string };

interface Job {
  readonly id: number;
  readonly task: WorkerTask;
  resolve(result: WorkerResult): void;
  reject(error: Error): void;
}

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

/**
 * bwip-js in worker threads, so a drawing of 0.4 s holds one worker and not the event loop that
 * answers every other request. Workers start on the first task, up to `workers` of them, and stay
 * for the next; tasks beyond them wait in a queue of at most `queue` drawings, and a drawing that
 * finds it full is answered `busy` at once rather than waiting without end. A worker that dies
 * fails only its own task; the next task starts a new one. `stop` ends them all.
 */
export class BwipWorkerPool implements BwipEngine {
  readonly name = 'barcode drawing workers';
  private readonly idle: Worker[] = [];
  private readonly running = new Map<Worker, Job>();
  private readonly waiting: Job[] = [];
  private workerCount = 0;
  private nextId = 0;

  constructor(
    private readonly options: BwipWorkerPoolOptions,
    private readonly entry: URL = DRAW_WORKER,
  ) {}

  async symbols(): Promise<readonly BwipSymbol[]> {
    // Asked once per renderer, before its first drawing: never refused for a full queue.
    const result = await this.submit({ kind: 'symbols' }, false);
    if (result.kind !== 'symbols') throw new TypeError(`a drawing worker answered ${result.kind} for the symbol list`);
    return result.symbols;
  }

  async draw(task: BwipTask): Promise<BwipDrawn> {
    const result = await this.submit({ kind: 'draw', ...task }, true);
    if (result.kind === 'symbols') throw new TypeError('a drawing worker answered the symbol list for a drawing');
    return result;
  }

  /** Workers running now and drawings waiting, for tests and diagnostics. */
  get size(): { readonly workers: number; readonly busy: number; readonly waiting: number } {
    return { workers: this.workerCount, busy: this.running.size, waiting: this.waiting.length };
  }

  start(): void {
    // Nothing to start: workers start with the first drawing, so a server that draws none pays nothing.
  }

  /** Ends every worker; tasks still waiting or being drawn are failed. */
  async stop(): Promise<void> {
    const stopped = new Error('the barcode drawing workers were stopped');
    for (const job of this.waiting.splice(0)) job.reject(stopped);
    const workers = [...this.idle.splice(0), ...this.running.keys()];
    for (const job of this.running.values()) job.reject(stopped);
    this.running.clear();
    this.workerCount = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private submit(task: WorkerTask, bounded: boolean): Promise<WorkerResult> {
    return new Promise<WorkerResult>((resolve, reject) => {
      const job: Job = { id: this.nextId++, task, resolve, reject };
      const worker = this.idle.pop() ?? (this.workerCount < this.options.workers ? this.spawn() : undefined);
      if (worker) return this.assign(worker, job);
      if (bounded && this.waiting.length >= this.options.queue) {
        resolve({
          kind: 'busy',
          reason: `all ${this.options.workers} barcode drawing workers are busy and the queue of ${this.options.queue} waiting drawings is full`,
        });
        return;
      }
      this.waiting.push(job);
    });
  }

  private assign(worker: Worker, job: Job): void {
    this.running.set(worker, job);
    // A busy worker keeps the process alive until its answer; an idle one never does.
    worker.ref();
    worker.postMessage({ id: job.id, task: job.task });
  }

  private spawn(): Worker {
    const worker = new Worker(this.entry, { resourceLimits: WORKER_HEAP });
    this.workerCount++;
    worker.on('message', (reply: WorkerReply) => {
      const job = this.running.get(worker);
      if (!job || job.id !== reply.id) return;
      this.running.delete(worker);
      if ('failure' in reply) job.reject(new Error(`drawing a barcode failed: ${reply.failure}`));
      else job.resolve(reply.result);
      this.release(worker);
    });
    worker.on('error', (error) => this.lose(worker, error));
    worker.on('exit', (code) => this.lose(worker, new Error(`a barcode drawing worker exited with code ${code}`)));
    return worker;
  }

  /** The next waiting task to the worker that finished, or the worker to the idle list. */
  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) return this.assign(worker, next);
    worker.unref();
    this.idle.push(worker);
  }

  /** A worker that failed or exited: its task fails, and a waiting task gets a new worker. */
  private lose(worker: Worker, error: Error): void {
    const job = this.running.get(worker);
    const known = job !== undefined || this.idle.includes(worker);
    if (!known) return;
    this.running.delete(worker);
    const idleAt = this.idle.indexOf(worker);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    this.workerCount--;
    job?.reject(error);
    void worker.terminate();
    const next = this.waiting.shift();
    if (next) this.assign(this.spawn(), next);
  }
}
