import { expect } from 'chai';
import { BwipBarcodeRenderer, UTF8_ECI_SYMBOLOGIES, bwipText } from '../../src/adapters/barcode/bwip-barcode-renderer.js';
import type { BarcodeRequest } from '../../src/domain/barcode/barcode.js';
import type { RenderOutcome } from '../../src/domain/barcode/ports.js';
import { readBarcodePng, readDataMatrixUtf8 } from '../support/barcode-reader.js';
import { aBarcodeRequest } from '../support/mothers.js';

const request = (symbology: string, content: string, more: Partial<BarcodeRequest> = {}): BarcodeRequest => aBarcodeRequest({ symbology, content, ...more });

const pngOf = (outcome: RenderOutcome): Buffer => {
  expect(outcome.kind, JSON.stringify(outcome)).to.equal('rendered');
  const image = (outcome as Extract<RenderOutcome, { kind: 'rendered' }>).image;
  if (image.format !== 'png') throw new Error('not a PNG');
  return Buffer.from(image.bytes);
};

describe('adapter: bwip-js renderer', () => {
  it('loads bwip-js once for calls that arrive together before it is loaded', async () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 1_000_000 });
    const [first, second, drawn] = await Promise.all([
      renderer.symbologies(),
      renderer.symbologies(),
      renderer.render(request('qrcode', 'x', { format: 'svg', scale: 1 })),
    ]);
    expect(second).to.equal(first);
    expect(drawn.kind).to.equal('rendered');
    expect(await renderer.symbologies()).to.equal(first);
  });

  it('gives the encoder’s own reason and id when it refuses content', async () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 1_000_000 });
    expect(await renderer.render(request('ean13', '123'))).to.deep.equal({
      kind: 'content-refused',
      reason: 'EAN-13 must be 12 or 13 digits (ean13badLength)',
    });
  });

  describe('text beyond ASCII', () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 2_500_000 });

    it('writes Latin-1 content as its own bytes, so readers (taking unmarked bytes as Latin-1) read it back', async () => {
      const latin1 = 'café ÿ £5 ß';
      for (const symbology of ['code128', 'datamatrix', 'pdf417', 'azteccode']) {
        expect(readBarcodePng(pngOf(await renderer.render(request(symbology, latin1))), symbology), symbology).to.equal(latin1);
      }
      expect(bwipText('code128', 'café')).to.deep.equal({ kind: 'text', text: 'café', binarytext: true, parsefnc: false });
    });

    it('writes content beyond Latin-1 as UTF-8 after ECI 000026 in a symbology that can mark it', async () => {
      expect(bwipText('datamatrix', '中^')).to.deep.equal({ kind: 'text', text: '^ECI000026\u00e4\u00b8\u00ad^^', binarytext: true, parsefnc: true });
      // ZXing's JavaScript reader honours ECIs in QR codes only: a QR code drawn by bwip-js reads back.
      expect(readBarcodePng(pngOf(await renderer.render(request('qrcode', '中文 ü'))), 'qrcode')).to.equal('中文 ü');
      expect(readDataMatrixUtf8(pngOf(await renderer.render(request('datamatrix', '中文 ü'))))).to.equal('中文 ü');
    });

    it('takes every ^ in marked content as itself: no content writes an ECI or function character', async () => {
      const tricky = '^ECI000003é中^FNC1^^ ^PROG ^';
      expect(readDataMatrixUtf8(pngOf(await renderer.render(request('datamatrix', tricky))))).to.equal(tricky);
      expect(readBarcodePng(pngOf(await renderer.render(request('qrcode', tricky))), 'qrcode')).to.equal(tricky);
      // Unmarked content is not parsed at all.
      expect(readBarcodePng(pngOf(await renderer.render(request('code128', '^FNC1^^é'))), 'code128')).to.equal('^FNC1^^é');
    });

    it('draws text beyond Latin-1 in every symbology that marks UTF-8, and refuses it, naming the character, in every other', async () => {
      const listed = (await renderer.symbologies()).map(({ id }) => id);
      expect(listed).to.include.members(UTF8_ECI_SYMBOLOGIES);
      const unexpected: string[] = [];
      for (const id of listed) {
        const outcome = await renderer.render(request(id, 'A\u{1F600}中文', { format: 'svg' }));
        // Swiss QR Code is UTF-8 by its own standard, unmarked: drawn as bwip-js writes text.
        const drawn = UTF8_ECI_SYMBOLOGIES.includes(id) || id === 'swissqrcode';
        if (drawn ? outcome.kind !== 'rendered' : outcome.kind !== 'content-refused' || !/"😀" \(U\+1F600\) is beyond it$/.test(outcome.reason)) {
          unexpected.push(`${id}: ${JSON.stringify(outcome)}`);
        }
      }
      expect(unexpected).to.deep.equal([]);
      expect(await renderer.render(request('code128', 'ok 中'))).to.deep.equal({
        kind: 'content-refused',
        reason: 'code128 carries ISO 8859-1 (Latin-1) text at most, and no ECI to mark UTF-8; "中" (U+4E2D) is beyond it',
      });
    });
  });
});
