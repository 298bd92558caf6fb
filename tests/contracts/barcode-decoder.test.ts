import { expect } from 'chai';
import { PNG } from 'pngjs';
import { BwipWorkerPool } from '../../src/families/barcode/adapters/bwip-worker-pool.js';
import { LeanQrBarcodeRenderer } from '../../src/families/barcode/adapters/lean-qr-barcode-renderer.js';
import { MemoryBarcodeDecoder } from '../../src/families/barcode/adapters/memory-barcode-decoder.js';
import { MemoryBarcodeRenderer } from '../../src/families/barcode/adapters/memory-barcode-renderer.js';
import { PooledBarcodeDecoder } from '../../src/families/barcode/adapters/pooled-barcode-decoder.js';
import type { BarcodeDecoder } from '../../src/families/barcode/domain/ports.js';
import { aBarcodeRequest } from '../support/mothers.js';

/** A QR code of the text, drawn by lean-qr with its quiet zone, as PNG bytes. */
async function qrPng(content: string): Promise<Uint8Array> {
  const outcome = await new LeanQrBarcodeRenderer({ maxPixels: 1_000_000 }, new MemoryBarcodeRenderer([], 1)).render(
    aBarcodeRequest({ content }),
  );
  if (outcome.kind !== 'rendered' || outcome.image.format !== 'png') throw new Error('no QR code drawn');
  return outcome.image.bytes;
}

const blankPng = (): Uint8Array => {
  const image = new PNG({ width: 64, height: 64 });
  image.data.fill(255);
  return PNG.sync.write(image);
};

const QR_CODE_AT = {
  topLeft: { x: 16, y: 16 },
  topRight: { x: 99, y: 16 },
  bottomRight: { x: 99, y: 99 },
  bottomLeft: { x: 16, y: 99 },
};

interface Adapter {
  readonly name: string;
  open(known: Uint8Array): { decoder: BarcodeDecoder; close(): Promise<void> };
}

const adapters: Adapter[] = [
  {
    name: 'memory',
    open: (known) => ({
      decoder: new MemoryBarcodeDecoder([
        { image: known, codes: [{ symbology: 'qrcode', text: 'contract', position: QR_CODE_AT }] },
      ]),
      close: async () => {},
    }),
  },
  // The worker runs draw-worker.js itself, with zxing-wasm's reader.
  {
    name: 'zxing-wasm in the drawing workers',
    open: () => {
      const pool = new BwipWorkerPool({ workers: 1, queue: 8 });
      return { decoder: new PooledBarcodeDecoder(pool), close: () => pool.stop() };
    },
  },
];

for (const adapter of adapters) {
  describe(`contract: BarcodeDecoder (${adapter.name})`, () => {
    let image: Uint8Array;
    let opened: ReturnType<Adapter['open']>;
    before(async () => {
      image = await qrPng('contract');
      opened = adapter.open(image);
    });
    after(async () => opened.close());

    it('reads a code, its symbology by the id it is drawn by, its text and its corners', async () => {
      const outcome = await opened.decoder.decode(image);
      if (outcome.kind !== 'decoded') throw new Error(JSON.stringify(outcome));
      expect(outcome.codes.map(({ symbology, text }) => [symbology, text])).to.deep.equal([['qrcode', 'contract']]);
      for (const [corner, { x, y }] of Object.entries(QR_CODE_AT)) {
        const found = outcome.codes[0]!.position[corner as keyof typeof QR_CODE_AT];
        expect(found.x, corner).to.be.closeTo(x, 2);
        expect(found.y, corner).to.be.closeTo(y, 2);
      }
    });

    it('finds no code in a picture without one', async () => {
      expect(await opened.decoder.decode(blankPng())).to.deep.equal({ kind: 'decoded', codes: [] });
    });

    it('says when the bytes are no picture it can read', async () => {
      const outcome = await opened.decoder.decode(Buffer.from('no picture at all'));
      expect(outcome.kind).to.equal('unreadable');
      expect((outcome as { reason: string }).reason)
        .to.be.a('string')
        .and.not.equal('');
    });
  });
}
