import { availableParallelism } from 'node:os';
import { ContainerModule } from 'inversify';
import { CachedBarcodeRenderer } from './adapters/cached-barcode-renderer.js';
import { FittingBarcodeRenderer } from './adapters/fitting-barcode-renderer.js';
import { LeanQrBarcodeRenderer } from './adapters/lean-qr-barcode-renderer.js';
import { BwipWorkerPool } from './adapters/bwip-worker-pool.js';
import { PooledBarcodeDecoder } from './adapters/pooled-barcode-decoder.js';
import { PooledBarcodeRenderer } from './adapters/pooled-barcode-renderer.js';
import { barcodeRoutes } from './barcode-routes.js';
import { DecodeBarcodes } from './domain/decode-barcodes.js';
import { GenerateBarcode, ListSymbologies } from './domain/generate-barcode.js';
import { BarcodeDecoder, BarcodeRenderer } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { LifecycleComponent } from '../../platform/lifecycle.js';

import type { BarcodeSettings } from './barcode-settings.js';
import { typedBindings } from '../../wiring/typed-binding.js';
export type { BarcodeSettings };

/** What the family offers a library user. */
export interface BarcodeUseCases {
  readonly generateBarcode: GenerateBarcode;
  readonly listSymbologies: ListSymbologies;
  readonly decodeBarcodes: DecodeBarcodes;
}
export const BarcodeUseCases = useCasesIdentifier<BarcodeUseCases>('BarcodeUseCases');

/** One less than the cores, so the event loop keeps one; at least one. */
export const defaultBarcodeWorkers = (): number => Math.max(1, availableParallelism() - 1);

/**
 * Barcodes and QR codes drawn as PNG or SVG: lean-qr for QR codes (a fraction of a millisecond, on
 * the event loop), bwip-js for the rest in worker threads; repeats answered from the cache on the
 * event loop. Images read by zxing-wasm in the same workers. The lifecycle stops the workers.
 */
export const barcodeModule = ({
  maxContentBytes,
  maxPixels,
  cacheBytes,
  workers,
  queue,
  maxDecodeBytes,
}: BarcodeSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    // One pool draws and reads: its workers and its queue bound both together.
    const drawingWorkers = workers ?? defaultBarcodeWorkers();
    const pool = new BwipWorkerPool({ workers: drawingWorkers, queue });
    const pooled = new PooledBarcodeRenderer({ maxPixels, workers: drawingWorkers, queue }, pool);
    constant(LifecycleComponent, pooled);
    constant(BarcodeDecoder, new PooledBarcodeDecoder(pool));
    const drawing = new FittingBarcodeRenderer(new LeanQrBarcodeRenderer({ maxPixels }, pooled));
    constant(BarcodeRenderer, new CachedBarcodeRenderer(drawing, cacheBytes));
    provide(BarcodeUseCases, [BarcodeRenderer, BarcodeDecoder], (renderer, decoder) => ({
      generateBarcode: new GenerateBarcode(renderer, maxContentBytes),
      listSymbologies: new ListSymbologies(renderer),
      decodeBarcodes: new DecodeBarcodes(decoder, maxDecodeBytes),
    })).inSingletonScope();
    provide(RouteContribution, [BarcodeUseCases], ({ generateBarcode, listSymbologies, decodeBarcodes }) => ({
      section: {
        name: 'Barcodes',
        description:
          'Draw a barcode or QR code of any bwip-js symbology as PNG or SVG, and read the codes in an image.',
      },
      routes: barcodeRoutes({
        generate: generateBarcode,
        listSymbologies,
        decode: decodeBarcodes,
        maxContentBytes,
        maxDecodeBytes,
      }),
    }));
  });
