import { ContainerModule } from 'inversify';
import { BwipBarcodeRenderer } from '../adapters/barcode/bwip-barcode-renderer.js';
import { CachedBarcodeRenderer } from '../adapters/barcode/cached-barcode-renderer.js';
import { LeanQrBarcodeRenderer } from '../adapters/barcode/lean-qr-barcode-renderer.js';
import { barcodeRoutes } from '../adapters/http/routes/barcode-routes.js';
import type { AppConfig } from '../config/config.js';
import { GenerateBarcode, ListSymbologies } from '../domain/barcode/generate-barcode.js';
import { BarcodeRenderer } from '../domain/barcode/ports.js';
import { RouteContribution, useCasesIdentifier } from './identifiers.js';

export type BarcodeSettings = AppConfig['barcode'];

/** What the family offers a library user. */
export interface BarcodeUseCases {
  readonly generateBarcode: GenerateBarcode;
  readonly listSymbologies: ListSymbologies;
}
export const BarcodeUseCases = useCasesIdentifier<BarcodeUseCases>('BarcodeUseCases');

/** Barcodes and QR codes drawn as PNG: lean-qr for QR codes, bwip-js for the rest. */
export const barcodeModule = ({ maxContentBytes, maxPixels, cacheBytes }: BarcodeSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(BarcodeRenderer).toConstantValue(new CachedBarcodeRenderer(new LeanQrBarcodeRenderer({ maxPixels }, new BwipBarcodeRenderer({ maxPixels })), cacheBytes));
    bind(GenerateBarcode).toResolvedValue((renderer: BarcodeRenderer) => new GenerateBarcode(renderer, maxContentBytes), [BarcodeRenderer]).inSingletonScope();
    bind(ListSymbologies).toResolvedValue((renderer: BarcodeRenderer) => new ListSymbologies(renderer), [BarcodeRenderer]).inSingletonScope();
    bind(BarcodeUseCases).toResolvedValue(
      (generateBarcode: GenerateBarcode, listSymbologies: ListSymbologies): BarcodeUseCases => ({ generateBarcode, listSymbologies }),
      [GenerateBarcode, ListSymbologies],
    );
    bind(RouteContribution).toResolvedValue(
      (generate: GenerateBarcode, listSymbologies: ListSymbologies): RouteContribution => ({
        routes: barcodeRoutes({ generate, listSymbologies, maxContentBytes }),
      }),
      [GenerateBarcode, ListSymbologies],
    );
  });
