import { defineFamily } from '../../wiring/family.js';
import { barcodeSamples } from './barcode-samples.js';
import { BarcodePermission } from './domain/permissions.js';
import { barcodeModule, BarcodeUseCases } from './barcode-module.js';
import { barcodeSettings } from './barcode-settings.js';

/** Barcodes and QR codes drawn as PNG or SVG. */
export const barcode = defineFamily({
  name: 'barcode',
  settings: barcodeSettings,
  permissions: BarcodePermission,
  module: (settings) => barcodeModule(settings),
  useCases: BarcodeUseCases,
  samples: barcodeSamples,
});
