import { expect } from 'chai';
import { BwipBarcodeRenderer } from '../../src/families/barcode/adapters/bwip-barcode-renderer.js';
import { CachedBarcodeRenderer } from '../../src/families/barcode/adapters/cached-barcode-renderer.js';
import { FittingBarcodeRenderer } from '../../src/families/barcode/adapters/fitting-barcode-renderer.js';
import { LeanQrBarcodeRenderer } from '../../src/families/barcode/adapters/lean-qr-barcode-renderer.js';
import { MemoryBarcodeRenderer } from '../../src/families/barcode/adapters/memory-barcode-renderer.js';
import { PooledBarcodeRenderer } from '../../src/families/barcode/adapters/pooled-barcode-renderer.js';
import type { BarcodeRequest } from '../../src/families/barcode/domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../../src/families/barcode/domain/ports.js';
import { isPng } from '../support/barcode-reader.js';
import { aBarcodeRequest } from '../support/mothers.js';

/** Small enough that a QR code of "hello" at scale 10 is over it and at scale 1 well under. */
const MAX_PIXELS = 10_000;

const adapters: { name: string; open: () => BarcodeRenderer }[] = [
  {
    name: 'memory',
    open: () =>
      new MemoryBarcodeRenderer(
        [
          { id: 'qrcode', description: 'QR Code', example: 'http://goo.gl/0bis', accepts: /^[\s\S]{1,100}$/ },
          {
            id: 'code128',
            description: 'Code 128',
            example: 'Count01234567!',
            accepts: /^[\x20-\xff]{1,80}$/,
            carriesUpTo: 0xff,
          },
          { id: 'ean13', description: 'EAN-13', example: '9520123456788', accepts: /^\d{12,13}$/ },
        ],
        MAX_PIXELS,
      ),
  },
  { name: 'bwip-js', open: () => new BwipBarcodeRenderer({ maxPixels: MAX_PIXELS }) },
  {
    name: 'lean-qr for QR codes, bwip-js for the rest',
    open: () =>
      new LeanQrBarcodeRenderer({ maxPixels: MAX_PIXELS }, new BwipBarcodeRenderer({ maxPixels: MAX_PIXELS })),
  },
  {
    name: 'lean-qr and bwip-js behind the fitting to a pixel box',
    open: () =>
      new FittingBarcodeRenderer(
        new LeanQrBarcodeRenderer({ maxPixels: MAX_PIXELS }, new BwipBarcodeRenderer({ maxPixels: MAX_PIXELS })),
      ),
  },
  {
    name: 'bwip-js behind the cache',
    open: () => new CachedBarcodeRenderer(new BwipBarcodeRenderer({ maxPixels: MAX_PIXELS }), 1_000_000),
  },
  // The worker runs draw-worker.js itself, not this TypeScript: this is what the test run (tsx) draws with.
  {
    name: 'bwip-js in worker threads',
    open: () => new PooledBarcodeRenderer({ maxPixels: MAX_PIXELS, workers: 2, queue: 64 }),
  },
];

const request = (symbology: string, content: string, more: Partial<BarcodeRequest> = {}): BarcodeRequest =>
  aBarcodeRequest({ symbology, content, scale: 1, ...more });

for (const adapter of adapters) {
  describe(`contract: BarcodeRenderer (${adapter.name})`, () => {
    let renderer: BarcodeRenderer;
    beforeEach(() => {
      renderer = adapter.open();
    });
    afterEach(async () => {
      if (renderer instanceof PooledBarcodeRenderer) await renderer.stop();
    });

    it('lists its symbologies by id, each with a description and an example', async () => {
      const symbologies = await renderer.symbologies();
      expect(symbologies.map(({ id }) => id)).to.include.members(['qrcode', 'code128', 'ean13']);
      for (const symbology of symbologies) {
        expect(Object.keys(symbology)).to.deep.equal(['id', 'description', 'example']);
        expect(symbology.description).to.be.a('string').and.not.equal('');
        if (symbology.example !== null) expect(symbology.example).to.be.a('string').and.not.equal('');
      }
    });

    it('draws the example of every symbology it lists', async () => {
      const refused: string[] = [];
      for (const { id, example } of await renderer.symbologies()) {
        if (example === null) continue;
        const outcome = await renderer.render(request(id, example, { format: 'svg' }));
        if (outcome.kind !== 'rendered') refused.push(`${id}: ${JSON.stringify(outcome)}`);
      }
      expect(refused).to.deep.equal([]);
    });

    it('draws a PNG and an SVG', async () => {
      const png = await renderer.render(request('qrcode', 'hello'));
      expect(png.kind).to.equal('rendered');
      const pngImage = (png as Extract<RenderOutcome, { kind: 'rendered' }>).image;
      expect(pngImage.format).to.equal('png');
      expect(isPng((pngImage as { bytes: Uint8Array }).bytes)).to.equal(true);
      const svg = await renderer.render(request('qrcode', 'hello', { format: 'svg' }));
      expect(svg).to.have.nested.property('image.format', 'svg');
      expect((svg as { image: { markup: string } }).image.markup).to.match(
        /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/,
      );
    });

    it('says when it does not know a symbology, and draws none it does not list', async () => {
      expect(await renderer.render(request('nosuchcodec', 'hello'))).to.deep.equal({ kind: 'unknown-symbology' });
      const listed = new Set((await renderer.symbologies()).map(({ id }) => id));
      for (const unlisted of ['mailmark', 'rectangularmicroqrcode', 'd3aqr', 'QRCODE', 'toString', '__proto__'].filter(
        (id) => !listed.has(id),
      )) {
        expect(await renderer.render(request(unlisted, '1234')), unlisted).to.deep.equal({ kind: 'unknown-symbology' });
      }
    });

    it('refuses content the symbology cannot hold, with a reason', async () => {
      const outcome = await renderer.render(request('ean13', 'ABCDEFGHIJKL'));
      expect(outcome.kind).to.equal('content-refused');
      expect((outcome as { reason: string }).reason)
        .to.be.a('string')
        .and.not.equal('');
    });

    it('draws Latin-1 text in Code 128, and refuses a character beyond what it carries, naming it', async () => {
      expect(await renderer.render(request('code128', 'café', { format: 'svg' }))).to.have.property('kind', 'rendered');
      const outcome = await renderer.render(request('code128', 'ok 中文'));
      expect(outcome.kind).to.equal('content-refused');
      expect((outcome as { reason: string }).reason).to.include('"中"');
    });

    it('draws a QR code at every error-correction level, and refuses the option for a symbology without one', async () => {
      for (const ecLevel of ['L', 'M', 'Q', 'H'] as const)
        expect(await renderer.render(request('qrcode', 'hello', { ecLevel, format: 'svg' })), ecLevel).to.have.property(
          'kind',
          'rendered',
        );
      const refused = await renderer.render(request('code128', 'hello', { ecLevel: 'H' }));
      expect(refused).to.deep.include({ kind: 'option-refused', option: 'eclevel' });
    });

    it('refuses a PNG over its pixel limit, with a reason', async () => {
      const outcome = await renderer.render(request('qrcode', 'hello', { scale: 10 }));
      expect(outcome.kind).to.equal('too-large');
      expect((outcome as { reason: string }).reason)
        .to.be.a('string')
        .and.not.equal('');
    });
  });
}
