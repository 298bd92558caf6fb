import { expect } from 'chai';
import { BwipBarcodeRenderer } from '../../src/adapters/barcode/bwip-barcode-renderer.js';

describe('adapter: bwip-js renderer', () => {
  it('loads bwip-js once for calls that arrive together before it is loaded', async () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 1_000_000 });
    const [first, second, drawn] = await Promise.all([
      renderer.symbologies(),
      renderer.symbologies(),
      renderer.render({ symbology: 'qrcode', content: 'x', format: 'svg', scale: 1, heightMm: undefined, includeText: false, rotate: 'N' }),
    ]);
    expect(second).to.equal(first);
    expect(drawn.kind).to.equal('rendered');
    expect(await renderer.symbologies()).to.equal(first);
  });

  it('gives the encoder’s own reason and id when it refuses content', async () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 1_000_000 });
    expect(await renderer.render({ symbology: 'ean13', content: '123', format: 'png', scale: 2, heightMm: undefined, includeText: false, rotate: 'N' })).to.deep.equal({
      kind: 'content-refused',
      reason: 'EAN-13 must be 12 or 13 digits (ean13badLength)',
    });
  });
});
