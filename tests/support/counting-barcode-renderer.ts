import { MemoryBarcodeRenderer } from '../../src/families/barcode/adapters/memory-barcode-renderer.js';
import type { BarcodeRequest } from '../../src/families/barcode/domain/barcode.js';
import type { BarcodeRenderer } from '../../src/families/barcode/domain/ports.js';

/** Two symbologies for the memory renderer: anything up to 500 characters, and 12 or 13 digits. */
export const SYMBOLOGIES = [
  { id: 'qrcode', description: 'QR Code', example: 'hello', accepts: /^[\s\S]{1,500}$/ },
  { id: 'ean13', description: 'EAN-13', example: '9520123456788', accepts: /^\d{12,13}$/ },
];

/** The memory renderer, counting what reaches it. */
export class CountingRenderer implements BarcodeRenderer {
  readonly requests: BarcodeRequest[] = [];
  private readonly inner = new MemoryBarcodeRenderer(SYMBOLOGIES, 1_000_000);
  symbologies = () => this.inner.symbologies();
  render(request: BarcodeRequest) {
    this.requests.push(request);
    return this.inner.render(request);
  }
}
