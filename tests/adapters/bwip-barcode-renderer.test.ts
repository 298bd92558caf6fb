import { expect } from 'chai';
import bwipjs from 'bwip-js';
import {
  BwipBarcodeRenderer,
  PRINTS_NO_TEXT,
  TAKES_NO_HEIGHT,
  UTF8_ECI_SYMBOLOGIES,
  bwipText,
} from '../../src/families/barcode/adapters/bwip-barcode-renderer.js';
import type { BarcodeRequest } from '../../src/families/barcode/domain/barcode.js';
import type { RenderOutcome } from '../../src/families/barcode/domain/ports.js';
import { readBarcodePng, readDataMatrixUtf8 } from '../support/barcode-reader.js';
import { aBarcodeRequest } from '../support/mothers.js';

const request = (symbology: string, content: string, more: Partial<BarcodeRequest> = {}): BarcodeRequest =>
  aBarcodeRequest({ symbology, content, ...more });

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

  it('refuses includetext=true where no text is drawn and a height where none changes the drawing, rather than drop them', async () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 1_000_000 });
    for (const symbology of ['qrcode', 'datamatrix', 'pdf417']) {
      expect(await renderer.render(request(symbology, 'x', { includeText: true }))).to.deep.include({
        kind: 'option-refused',
        option: 'includetext',
      });
      expect((await renderer.render(request(symbology, 'x', { includeText: false }))).kind).to.equal('rendered');
    }
    expect(await renderer.render(request('maxicode', 'x', { heightMm: 20 }))).to.deep.include({
      kind: 'option-refused',
      option: 'height',
    });
    expect((await renderer.render(request('code128', 'x', { includeText: true, heightMm: 20 }))).kind).to.equal(
      'rendered',
    );
  });

  it('lists exactly the symbologies whose drawing the option does not change, as bwip-js draws them', () => {
    const drawn = (bcid: string, text: string, more: Record<string, unknown>) =>
      bwipjs.toSVG({ bcid, text, scale: 1, ...more } as Parameters<typeof bwipjs.toSVG>[0]);
    // bwip-js's example of MaxiCode is written in escapes it parses only when told to; plain text does.
    const textOf = (bcid: string) =>
      bcid === 'maxicode' ? 'Hello' : bwipjs.symbolList.find((symbol) => symbol.bcid === bcid)!.text;
    const unchanged = (bcid: string, option: Record<string, unknown>, otherwise: Record<string, unknown>) =>
      drawn(bcid, textOf(bcid), option) === drawn(bcid, textOf(bcid), otherwise);
    // Swiss QR Code's content is a whole payment slip: a QR code like any other (checked above), it is left out here.
    for (const bcid of PRINTS_NO_TEXT)
      if (bcid !== 'swissqrcode')
        expect(unchanged(bcid, { includetext: true }, { includetext: false }), bcid).to.equal(true);
    for (const bcid of TAKES_NO_HEIGHT) expect(unchanged(bcid, { height: 30 }, { height: 5 }), bcid).to.equal(true);
    // And where the option does change the drawing, it is not listed.
    for (const bcid of [
      'code128',
      'ean13',
      'upca',
      'code39',
      'interleaved2of5',
      'databaromni',
      'postnet',
      'pharmacode',
      'isbn',
      'gs1-128',
    ]) {
      expect(PRINTS_NO_TEXT.has(bcid) || unchanged(bcid, { includetext: true }, { includetext: false }), bcid).to.equal(
        false,
      );
      expect(TAKES_NO_HEIGHT.has(bcid) || unchanged(bcid, { height: 30 }, { height: 5 }), bcid).to.equal(false);
    }
  });

  describe('text beyond ASCII', () => {
    const renderer = new BwipBarcodeRenderer({ maxPixels: 2_500_000 });

    it('writes Latin-1 content as its own bytes, so readers (taking unmarked bytes as Latin-1) read it back', async () => {
      const latin1 = 'café ÿ £5 ß';
      for (const symbology of ['code128', 'datamatrix', 'pdf417', 'azteccode']) {
        expect(readBarcodePng(pngOf(await renderer.render(request(symbology, latin1))), symbology), symbology).to.equal(
          latin1,
        );
      }
      expect(bwipText('code128', 'café')).to.deep.equal({
        kind: 'text',
        text: 'café',
        binarytext: true,
        parsefnc: false,
      });
    });

    it('writes content beyond Latin-1 as UTF-8 after ECI 000026 in a symbology that can mark it', async () => {
      expect(bwipText('datamatrix', '中^')).to.deep.equal({
        kind: 'text',
        text: '^ECI000026\u00e4\u00b8\u00ad^^',
        binarytext: true,
        parsefnc: true,
      });
      // ZXing's JavaScript reader honours ECIs in QR codes only: a QR code drawn by bwip-js reads back.
      expect(readBarcodePng(pngOf(await renderer.render(request('qrcode', '中文 ü'))), 'qrcode')).to.equal('中文 ü');
      expect(readDataMatrixUtf8(pngOf(await renderer.render(request('datamatrix', '中文 ü'))))).to.equal('中文 ü');
    });

    it('takes every ^ in marked content as itself: no content writes an ECI or function character', async () => {
      const tricky = '^ECI000003é中^FNC1^^ ^PROG ^';
      expect(readDataMatrixUtf8(pngOf(await renderer.render(request('datamatrix', tricky))))).to.equal(tricky);
      expect(readBarcodePng(pngOf(await renderer.render(request('qrcode', tricky))), 'qrcode')).to.equal(tricky);
      // Unmarked content is not parsed at all.
      expect(readBarcodePng(pngOf(await renderer.render(request('code128', '^FNC1^^é'))), 'code128')).to.equal(
        '^FNC1^^é',
      );
    });

    it('draws text beyond Latin-1 in every symbology that marks UTF-8, and refuses it, naming the character, in every other', async () => {
      const listed = (await renderer.symbologies()).map(({ id }) => id);
      expect(listed).to.include.members(UTF8_ECI_SYMBOLOGIES);
      const unexpected: string[] = [];
      for (const id of listed) {
        const outcome = await renderer.render(request(id, 'A\u{1F600}中文', { format: 'svg' }));
        // Swiss QR Code is UTF-8 by its own standard, unmarked: drawn as bwip-js writes text.
        const drawn = UTF8_ECI_SYMBOLOGIES.includes(id) || id === 'swissqrcode';
        if (
          drawn
            ? outcome.kind !== 'rendered'
            : outcome.kind !== 'content-refused' || !/"😀" \(U\+1F600\) is beyond it$/.test(outcome.reason)
        ) {
          unexpected.push(`${id}: ${JSON.stringify(outcome)}`);
        }
      }
      expect(unexpected).to.deep.equal([]);
      expect(await renderer.render(request('code128', 'ok 中'))).to.deep.equal({
        kind: 'content-refused',
        reason:
          'code128 carries ISO 8859-1 (Latin-1) text at most, and no ECI to mark UTF-8; "中" (U+4E2D) is beyond it',
      });
    });
  });
});
