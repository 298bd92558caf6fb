import { expect } from 'chai';
import { CachedBarcodeRenderer } from '../../src/families/barcode/adapters/cached-barcode-renderer.js';
import type { BarcodeRequest } from '../../src/families/barcode/domain/barcode.js';
import { CountingRenderer } from '../support/counting-barcode-renderer.js';
import { aBarcodeRequest } from '../support/mothers.js';

describe('adapter: the barcode cache', () => {
  const request = (content: string, more: Partial<BarcodeRequest> = {}): BarcodeRequest =>
    aBarcodeRequest({ content, format: 'svg', ...more });

  it('draws a request once, and again for any input that differs', async () => {
    const inner = new CountingRenderer();
    const cache = new CachedBarcodeRenderer(inner, 100_000);
    const first = await cache.render(request('same'));
    expect(await cache.render(request('same'))).to.equal(first);
    expect(inner.requests).to.have.length(1);
    const variants: Partial<BarcodeRequest>[] = [
      { format: 'png' },
      { scale: 3 },
      { heightMm: 12 },
      { includeText: true },
      { rotate: 'R' },
      { background: 'transparent' },
      { quietZone: false },
      { symbology: 'ean13' },
      { content: 'Same' },
    ];
    for (const variant of variants) await cache.render(request('same', variant));
    expect(inner.requests).to.have.length(1 + variants.length);
    // Refusals are remembered too.
    await cache.render(request('letters', { symbology: 'ean13' }));
    await cache.render(request('letters', { symbology: 'ean13' }));
    expect(inner.requests).to.have.length(2 + variants.length);
  });

  it('stays within its byte budget, dropping the least recently used first', async () => {
    const inner = new CountingRenderer();
    const cache = new CachedBarcodeRenderer(inner, 4_000);
    await cache.render(request('kept'));
    for (let i = 0; i < 50; i++) {
      await cache.render(request(`filler ${i}`));
      await cache.render(request('kept'));
      expect(cache.size.bytes).to.be.at.most(4_000);
    }
    const drawnBefore = inner.requests.length;
    await cache.render(request('kept'));
    await cache.render(request('filler 0'));
    expect(inner.requests.length - drawnBefore).to.equal(1);
    expect(cache.size.entries).to.be.greaterThan(1);
  });

  it('keeps nothing over a quarter of its budget, and nothing at all with a budget of 0', async () => {
    const inner = new CountingRenderer();
    const small = new CachedBarcodeRenderer(inner, 1_000);
    await small.render(request('x'.repeat(400)));
    expect(small.size).to.deep.equal({ entries: 0, bytes: 0 });
    const off = new CachedBarcodeRenderer(inner, 0);
    await off.render(request('y'));
    await off.render(request('y'));
    expect(off.size.entries).to.equal(0);
    expect(inner.requests.filter(({ content }) => content === 'y')).to.have.length(2);
  });
});
