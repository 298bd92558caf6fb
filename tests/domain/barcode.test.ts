import { expect } from 'chai';
import { MemoryBarcodeDecoder } from '../../src/families/barcode/adapters/memory-barcode-decoder.js';
import { MemoryBarcodeRenderer } from '../../src/families/barcode/adapters/memory-barcode-renderer.js';
import { DecodeBarcodes, imageHeaderOf } from '../../src/families/barcode/domain/decode-barcodes.js';
import { rgbOf } from '../../src/families/barcode/domain/barcode.js';
import { GenerateBarcode, ListSymbologies } from '../../src/families/barcode/domain/generate-barcode.js';
import { CountingRenderer, SYMBOLOGIES } from '../support/counting-barcode-renderer.js';
import { expectLeftTag, expectRight } from '../support/either.js';

describe('domain: barcodes', () => {
  it('draws with documented defaults: PNG, scale 2, no text, not rotated', async () => {
    const renderer = new CountingRenderer();
    const image = expectRight(await new GenerateBarcode(renderer, 100).execute({ symbology: 'qrcode', content: 'hi' }));
    expect(image.format).to.equal('png');
    expect(renderer.requests).to.deep.equal([
      {
        symbology: 'qrcode',
        content: 'hi',
        format: 'png',
        scale: 2,
        fit: undefined,
        heightMm: undefined,
        includeText: false,
        textSize: undefined,
        rotate: 'N',
        color: '000000',
        textColor: '000000',
        background: 'FFFFFF',
        quietZone: true,
        ecLevel: undefined,
      },
    ]);
  });

  it('turns the renderer’s outcomes into catalogue errors: 404/22 and 400/7 naming what to change', async () => {
    const generate = new GenerateBarcode(new MemoryBarcodeRenderer(SYMBOLOGIES, 10_000), 100);
    expectLeftTag(await generate.execute({ symbology: 'nope', content: 'x' }), 'InformationNotFound');
    const refused = expectLeftTag(await generate.execute({ symbology: 'ean13', content: 'letters' }), 'InvalidInput');
    expect(refused).to.deep.include({ fields: ['content'] });
    expect((refused as { reason: string }).reason).to.match(/^ean13 cannot encode this content: /);
    const tooLarge = expectLeftTag(
      await generate.execute({ symbology: 'qrcode', content: 'wide content', scale: 10, heightMm: 100 }),
      'InvalidInput',
    );
    expect(tooLarge).to.deep.include({ fields: ['scale', 'height'] });
  });

  it('refuses content and options out of bounds before drawing anything', async () => {
    const renderer = new CountingRenderer();
    const generate = new GenerateBarcode(renderer, 10);
    const refusals: [Parameters<GenerateBarcode['execute']>[0], string][] = [
      [{ symbology: 'qrcode', content: '' }, 'content'],
      [{ symbology: 'qrcode', content: '12345678901' }, 'content'],
      [{ symbology: 'qrcode', content: 'ééééé é' }, 'content'],
      [{ symbology: 'qrcode', content: 'a\uD800b' }, 'content'],
      [{ symbology: 'qrcode', content: '\uDC00' }, 'content'],
      [{ symbology: 'qrcode', content: 'x', scale: 0 }, 'scale'],
      [{ symbology: 'qrcode', content: 'x', scale: 1.5 }, 'scale'],
      [{ symbology: 'qrcode', content: 'x', scale: 11 }, 'scale'],
      [{ symbology: 'qrcode', content: 'x', heightMm: 0.9 }, 'height'],
      [{ symbology: 'qrcode', content: 'x', heightMm: Number.NaN }, 'height'],
      [{ symbology: 'qrcode', content: 'x', heightMm: 100.5 }, 'height'],
      [{ symbology: 'qrcode', content: 'x', widthPx: 15 }, 'width'],
      [{ symbology: 'qrcode', content: 'x', widthPx: 8193 }, 'width'],
      [{ symbology: 'qrcode', content: 'x', heightPx: 100.5 }, 'heightpx'],
      [{ symbology: 'ean13', content: 'x', includeText: true, textSize: 3 }, 'textsize'],
      [{ symbology: 'ean13', content: 'x', includeText: true, textSize: 37 }, 'textsize'],
      // Options that make no sense together: refused, never one of them dropped.
      [{ symbology: 'qrcode', content: 'x', scale: 3, widthPx: 300 }, 'scale'],
      [{ symbology: 'qrcode', content: 'x', scale: 3, heightPx: 300 }, 'scale'],
      [{ symbology: 'ean13', content: 'x', textSize: 12 }, 'textsize'],
      [{ symbology: 'ean13', content: 'x', includeText: false, textColor: rgbOf('FF0000') }, 'textcolor'],
      [{ symbology: 'qrcode', content: 'x', color: rgbOf('FFFFFF') }, 'color'],
      [{ symbology: 'qrcode', content: 'x', color: rgbOf('123456'), background: rgbOf('123456') }, 'color'],
      [{ symbology: 'qrcode', content: 'x', format: 'svg', color: rgbOf('FFFFFF'), background: 'white' }, 'color'],
      [
        {
          symbology: 'ean13',
          content: 'x',
          includeText: true,
          textColor: rgbOf('ABCDEF'),
          background: rgbOf('ABCDEF'),
        },
        'textcolor',
      ],
    ];
    for (const [input, name] of refusals) {
      expect(expectLeftTag(await generate.execute(input), 'InvalidInput'), JSON.stringify(input)).to.deep.include({
        fields: [name],
      });
    }
    expect(renderer.requests).to.deep.equal([]);
    // Ten bytes exactly, and a well-formed pair of surrogates (one emoji, four bytes), are fine.
    expectRight(await generate.execute({ symbology: 'qrcode', content: '1234567890' }));
    expectRight(await generate.execute({ symbology: 'qrcode', content: 'ok \u{1F600}' }));
    // White bars are fine on a transparent SVG (a dark page of the caller's own), or on any other ground.
    expectRight(await generate.execute({ symbology: 'qrcode', content: 'x', format: 'svg', color: rgbOf('FFFFFF') }));
    expectRight(
      await generate.execute({
        symbology: 'qrcode',
        content: 'x',
        color: rgbOf('FFFFFF'),
        background: rgbOf('000000'),
      }),
    );
  });

  it('draws an SVG bare and transparent unless asked, and gives the text the bars’ colour unless asked', async () => {
    const renderer = new CountingRenderer();
    const generate = new GenerateBarcode(renderer, 100);
    expectRight(await generate.execute({ symbology: 'qrcode', content: 'a', format: 'svg', color: rgbOf('aa0000') }));
    expectRight(
      await generate.execute({ symbology: 'qrcode', content: 'b', widthPx: 300, background: rgbOf('00ff00') }),
    );
    expect(
      renderer.requests.map(({ background, quietZone, color, textColor, fit }) => ({
        background,
        quietZone,
        color,
        textColor,
        fit,
      })),
    ).to.deep.equal([
      { background: 'transparent', quietZone: false, color: 'AA0000', textColor: 'AA0000', fit: undefined },
      {
        background: '00FF00',
        quietZone: true,
        color: '000000',
        textColor: '000000',
        fit: { width: 300, height: undefined },
      },
    ]);
  });

  it('lists the renderer’s symbologies', async () => {
    const listed = expectRight(await new ListSymbologies(new CountingRenderer()).execute());
    expect(listed.map(({ id }) => id)).to.deep.equal(['qrcode', 'ean13']);
  });
});

describe('domain: reading barcodes', () => {
  const png = (width: number, height: number) => {
    const bytes = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    bytes.writeUInt32BE(13, 8);
    bytes.write('IHDR', 12, 'latin1');
    bytes.writeUInt32BE(width, 16);
    bytes.writeUInt32BE(height, 20);
    return bytes;
  };
  /** SOI, an APP0 segment to skip, then SOF2 (progressive) with its height and width. */
  const jpeg = (width: number, height: number) => {
    const bytes = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc2, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01,
    ]);
    bytes.writeUInt16BE(height, 13);
    bytes.writeUInt16BE(width, 15);
    return bytes;
  };

  it('tells a PNG and a JPEG by their first bytes, and their size by their header', () => {
    expect(imageHeaderOf(png(300, 200))).to.deep.equal({ kind: 'png', size: { width: 300, height: 200 } });
    expect(imageHeaderOf(jpeg(640, 480))).to.deep.equal({ kind: 'jpeg', size: { width: 640, height: 480 } });
    expect(imageHeaderOf(Buffer.from('GIF89a'))).to.equal(undefined);
  });

  it('refuses an empty, oversized, unknown or too large image before the decoder sees it', async () => {
    const decoder = new MemoryBarcodeDecoder();
    const decode = new DecodeBarcodes(decoder, 1000);
    for (const [image, reason] of [
      [Buffer.alloc(0), /empty/],
      [Buffer.concat([png(10, 10), Buffer.alloc(1000)]), /at most 1000 bytes/],
      [Buffer.from('GIF89a'), /PNG or a JPEG/],
      [png(2049, 2048), /at most 4194304 pixels/],
      [jpeg(4032, 3024), /at most 4194304 pixels/],
    ] as const) {
      const refused = expectLeftTag(await decode.execute(image), 'InvalidInput');
      expect(refused, String(reason)).to.deep.include({ fields: ['image'] });
      expect((refused as { reason: string }).reason).to.match(reason);
    }
    expectRight(await decode.execute(png(2048, 2048)));
  });
});
