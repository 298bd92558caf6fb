/** What other families and library users may use of barcodes: its use cases, what they take and answer, its port and its permissions. */
export type { GenerateBarcode, GenerateBarcodeInput, ListSymbologies } from './generate-barcode.js';
export type { RenderedBarcode, Symbology } from './barcode.js';
export type { BarcodeRenderer } from './ports.js';
export { BarcodePermission } from './permissions.js';
