/** What other families and library users may use of barcodes: its use cases, what they take and answer, its port and its permissions. */
export type { GenerateBarcode, GenerateBarcodeInput, ListSymbologies } from './generate-barcode.js';
export type { RenderedBarcode, Symbology } from './barcode.js';
export type { BarcodeDecoder, BarcodeRenderer } from './ports.js';
export type { CodePosition, DecodeBarcodes, DecodedCode } from './decode-barcodes.js';
export { BarcodePermission } from './permissions.js';
