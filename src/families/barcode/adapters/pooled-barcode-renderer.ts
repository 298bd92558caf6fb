import type { BarcodeRequest, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';
import { BwipBarcodeRenderer, type BwipRendererOptions } from './bwip-barcode-renderer.js';
import { BwipWorkerPool, type BwipWorkerPoolOptions } from './bwip-worker-pool.js';

export type PooledRendererOptions = BwipRendererOptions & BwipWorkerPoolOptions;

/**
 * bwip-js's barcodes drawn in a pool of worker threads: the same drawings and refusals as
 * BwipBarcodeRenderer, without holding the event loop while the encoder works (0.1–0.4 s for a
 * 1 KB Aztec code). When every worker is drawing and the queue is full, a drawing is answered
 * `busy`. It has a beginning and an end: the composition root hands it to the lifecycle, which
 * stops its workers.
 */
export class PooledBarcodeRenderer implements BarcodeRenderer {
  readonly name = 'barcode drawing workers';
  private readonly pool: BwipWorkerPool;
  private readonly renderer: BwipBarcodeRenderer;

  /** `pool`, when given, is shared with others (the decoder): its workers and queue bound them all. */
  constructor({ maxPixels, workers, queue }: PooledRendererOptions, pool?: BwipWorkerPool) {
    this.pool = pool ?? new BwipWorkerPool({ workers, queue });
    this.renderer = new BwipBarcodeRenderer({ maxPixels }, this.pool);
  }

  symbologies(): Promise<readonly Symbology[]> {
    return this.renderer.symbologies();
  }

  render(request: BarcodeRequest): Promise<RenderOutcome> {
    return this.renderer.render(request);
  }

  /** Workers start on the first drawing, not with the server. */
  start(): void {}

  stop(): Promise<void> {
    return this.pool.stop();
  }

  /** Workers running now and drawings waiting, for tests and diagnostics. */
  get size(): BwipWorkerPool['size'] {
    return this.pool.size;
  }
}
