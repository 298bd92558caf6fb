import { expect } from 'chai';
import { PNG } from 'pngjs';
import { LeanQrBarcodeRenderer } from '../../src/families/barcode/adapters/lean-qr-barcode-renderer.js';
import {
  rgbOf,
  type BarcodeRequest,
  type RenderedBarcode,
  type Rotation,
} from '../../src/families/barcode/domain/barcode.js';
import type { RenderOutcome } from '../../src/families/barcode/domain/ports.js';
import { readBarcodePng } from '../support/barcode-reader.js';
import { aBarcodeRequest } from '../support/mothers.js';
import { CountingRenderer } from '../support/counting-barcode-renderer.js';

/** The bare symbol, no ground nor margin, so its modules can be counted from the image's edge. */
const request = (content: string, more: Partial<BarcodeRequest> = {}): BarcodeRequest =>
  aBarcodeRequest({ content, background: 'transparent', quietZone: false, ...more });

function drawn(outcome: RenderOutcome): RenderedBarcode {
  if (outcome.kind !== 'rendered') throw new Error(`not drawn: ${JSON.stringify(outcome)}`);
  return outcome.image;
}
const pngOf = (outcome: RenderOutcome): Buffer => Buffer.from((drawn(outcome) as { bytes: Uint8Array }).bytes);
const svgOf = (outcome: RenderOutcome): string => (drawn(outcome) as { markup: string }).markup;

/** Rows of the image, one character per module: `#` dark, `.` light (read at each module's centre). */
function modulesOfPng(png: Buffer, moduleSize: number): string[] {
  const image = PNG.sync.read(png);
  expect(image.width).to.equal(image.height);
  const rows: string[] = [];
  for (let y = moduleSize / 2; y < image.height; y += moduleSize) {
    let row = '';
    for (let x = moduleSize / 2; x < image.width; x += moduleSize)
      row += image.data[(y * image.width + x) * 4 + 3]! > 127 ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

/** The same rows from the SVG's rectangles (`M x y h w v s h -w z`), with its declared size. */
function modulesOfSvg(svg: string, moduleSize: number): string[] {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  expect(viewBox, svg.slice(0, 100)).to.not.equal(null);
  const side = Number(viewBox![1]);
  expect(Number(viewBox![2])).to.equal(side);
  const modules = side / moduleSize;
  const grid = Array.from({ length: modules }, () => Array<string>(modules).fill('.'));
  const path = /<path d="([^"]*)"/.exec(svg)![1]!;
  const rectangles = [...path.matchAll(/M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z/g)];
  expect(rectangles.map(([whole]) => whole).join('')).to.equal(path);
  for (const [, x, y, width, height, back] of rectangles) {
    expect(back).to.equal(width);
    expect(Number(height)).to.equal(moduleSize);
    for (let column = Number(x) / moduleSize; column < (Number(x) + Number(width)) / moduleSize; column++)
      grid[Number(y) / moduleSize]![column] = '#';
  }
  return grid.map((row) => row.join(''));
}

/** The rows turned a quarter clockwise. */
const turnedRight = (rows: readonly string[]): string[] =>
  rows.map((_, x) =>
    rows
      .map((row) => row[x])
      .reverse()
      .join(''),
  );

describe('adapter: QR codes by lean-qr', () => {
  const renderer = (maxPixels = 2_500_000, others = new CountingRenderer()) =>
    new LeanQrBarcodeRenderer({ maxPixels }, others);

  it('draws QR codes that read back to their content, ASCII or not', async () => {
    const qr = renderer();
    for (const content of [
      'hello',
      '12345678901234567890',
      'HTTPS://EXAMPLE.ORG/ABC',
      'https://example.org/ünïcode?x=1&y=2',
      '€ 漢字 😎 ok',
      'tab\there',
      'y'.repeat(300),
    ]) {
      expect(readBarcodePng(pngOf(await qr.render(request(content))), 'qrcode'), content).to.equal(content);
    }
  });

  it('draws the same modules in SVG and PNG, 2 units per module at scale 1, with no quiet zone', async () => {
    const qr = renderer();
    for (const scale of [1, 3]) {
      const png = modulesOfPng(pngOf(await qr.render(request('hello', { scale }))), 2 * scale);
      const svg = modulesOfSvg(svgOf(await qr.render(request('hello', { scale, format: 'svg' }))), 2 * scale);
      expect(svg).to.deep.equal(png);
      // Version 1: 21 modules a side, a finder pattern in three corners from the very edge.
      expect(png).to.have.length(21);
      expect(png[0]).to.match(/^#######\.[.#]{5}\.#######$/);
      expect(png[20]).to.match(/^#######\./);
    }
    expect(svgOf(await qr.render(request('hello', { format: 'svg' })))).to.match(
      /^<svg viewBox="0 0 84 84" xmlns="http:\/\/www\.w3\.org\/2000\/svg">\n<path d="[^"]+" \/>\n<\/svg>\n$/,
    );
  });

  it('turns the symbol as asked, in both formats', async () => {
    const qr = renderer();
    const upright = modulesOfPng(pngOf(await qr.render(request('turn me'))), 4);
    const right = turnedRight(upright);
    const inverted = turnedRight(right);
    const left = turnedRight(inverted);
    const expected: Record<Rotation, string[]> = { N: upright, R: right, I: inverted, L: left };
    for (const rotate of ['N', 'R', 'L', 'I'] as const) {
      expect(modulesOfPng(pngOf(await qr.render(request('turn me', { rotate }))), 4), rotate).to.deep.equal(
        expected[rotate],
      );
      expect(
        modulesOfSvg(svgOf(await qr.render(request('turn me', { rotate, format: 'svg' }))), 4),
        rotate,
      ).to.deep.equal(expected[rotate]);
    }
    expect(right).to.not.deep.equal(upright);
  });

  it('draws a PNG on opaque white with a quiet zone of 4 modules when asked, counted in its pixel limit', async () => {
    const png = PNG.sync.read(
      pngOf(await renderer().render(request('hello', { background: rgbOf('FFFFFF'), quietZone: true }))),
    );
    // 21 modules and 4 either side, 2 pixels a module at scale 1... here scale 2: 4 pixels.
    expect([png.width, png.height]).to.deep.equal([(21 + 8) * 4, (21 + 8) * 4]);
    expect([...png.data.subarray(0, 4)]).to.deep.equal([255, 255, 255, 255]);
    expect((await renderer(116 * 116 - 1).render(request('hello', { quietZone: true }))).kind).to.equal('too-large');
  });

  it('refuses content too long for the largest QR code, and a PNG over its pixel limit', async () => {
    expect(await renderer().render(request('x'.repeat(3000)))).to.deep.equal({
      kind: 'content-refused',
      reason: 'The input data is too long for the largest QR code (version 40) at error correction M',
    });
    // 21 modules × 2 × scale 2 = 84 pixels a side.
    expect((await renderer(84 * 84).render(request('hello'))).kind).to.equal('rendered');
    expect(await renderer(84 * 84 - 1).render(request('hello'))).to.deep.equal({
      kind: 'too-large',
      reason: 'the image would be larger than allowed (7055 pixels) at scale 2; lower them',
    });
    // SVG has no pixels to count.
    expect((await renderer(100).render(request('hello', { format: 'svg' }))).kind).to.equal('rendered');
  });

  it('leaves other symbologies, and QR codes given a bar height, to the renderer it wraps', async () => {
    const others = new CountingRenderer();
    const qr = renderer(2_500_000, others);
    await qr.render(request('9520123456788', { symbology: 'ean13' }));
    await qr.render(request('stretched', { heightMm: 30 }));
    await qr.render(request('mine'));
    expect(others.requests.map(({ symbology, content }) => `${symbology}:${content}`)).to.deep.equal([
      'ean13:9520123456788',
      'qrcode:stretched',
    ]);
    expect(await qr.symbologies()).to.deep.equal(await others.symbologies());
  });
});
