import { expect } from 'chai';
import { PNG } from 'pngjs';
import { isPng, readBarcodePng } from '../support/barcode-reader.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** The codecs the tests read back, each with content it can hold. */
const READ_BACK = [
  { codec: 'qrcode', content: 'https://example.org/colours' },
  { codec: 'code128', content: 'Order-2026/0042' },
  { codec: 'ean13', content: '5901234123457' },
  { codec: 'datamatrix', content: 'Lot 7, exp 2027-01' },
  { codec: 'pdf417', content: 'PDF417 in colour' },
  { codec: 'azteccode', content: 'Aztec in colour' },
];

/** Dark blue bars on pale yellow: far enough apart in lightness to scan, and neither black nor white. */
const BARS = '1F3A93';
const GROUND = 'FFF5CC';
const TEXT = 'B00020';

const rgbaOf = (hex: string, alpha = 255) => [
  Number.parseInt(hex.slice(0, 2), 16),
  Number.parseInt(hex.slice(2, 4), 16),
  Number.parseInt(hex.slice(4, 6), 16),
  alpha,
];

/** How many pixels of each colour (`r,g,b,a`) the image has. */
function coloursOf(png: Buffer): Map<string, number> {
  const image = PNG.sync.read(png);
  const counts = new Map<string, number>();
  for (let i = 0; i < image.data.length; i += 4) {
    const key = [...image.data.subarray(i, i + 4)].join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
const key = (rgba: number[]) => rgba.join(',');

describe('http: barcode options (colours, sizes, error correction, quiet zone, text)', () => {
  let server: TestServer;
  let token: string;
  const gen = (codec: string, query: Record<string, string>) =>
    server.get(`/api/barcode/gen/${encodeURIComponent(codec)}?${new URLSearchParams(query).toString()}`, {
      Authorization: `Bearer ${token}`,
    });
  const png = async (response: Response): Promise<Buffer> => {
    expect(response.status, response.status === 200 ? '' : await response.clone().text()).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(isPng(bytes)).to.equal(true);
    return bytes;
  };
  const svg = async (response: Response): Promise<string> => {
    expect(response.status, response.status === 200 ? '' : await response.clone().text()).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    return response.text();
  };
  const sizeOf = (image: Buffer) => {
    const { width, height } = PNG.sync.read(image);
    return { width, height };
  };
  const viewBoxOf = (markup: string) => /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(markup)!.slice(1).map(Number);

  before(async () => {
    server = await startServer({
      env: { UTILITY_API_RATE_LIMIT: 'off' },
      overrides: { barcode: { maxContentBytes: 300, maxPixels: 2_500_000, cacheBytes: 1_048_576 } },
    });
    token = await server.tokenFor(['Barcode::Generate']);
  });
  after(async () => server.close());

  for (const { codec, content } of READ_BACK) {
    it(`draws ${codec} in the bar and background colours asked, as PNG (still read back) and SVG`, async () => {
      const image = await png(await gen(codec, { content, color: BARS, background: GROUND }));
      const colours = coloursOf(image);
      // Nothing but the two colours: no black bar, no white ground left.
      expect([...colours.keys()].sort()).to.deep.equal([key(rgbaOf(BARS)), key(rgbaOf(GROUND))].sort());
      expect(readBarcodePng(image, codec)).to.equal(content);
      // Lower case is the same colour, and the same image.
      const lower = await png(await gen(codec, { content, color: BARS.toLowerCase(), background: GROUND }));
      expect(lower.equals(image)).to.equal(true);
      const markup = await svg(await gen(codec, { content, color: BARS, background: GROUND, format: 'svg' }));
      expect(markup).to.match(new RegExp(`<rect width="100%" height="100%" fill="#${GROUND}" />`, 'i'));
      expect(markup).to.match(new RegExp(`(?:fill|stroke)="#${BARS}"`, 'i'));
      expect(markup).to.not.match(/(?:fill|stroke)="#000000"/i);
      // On a transparent ground: the bars in their colour, nothing under the light modules.
      const bare = coloursOf(await png(await gen(codec, { content, color: BARS, background: 'transparent' })));
      expect([...bare.keys()].sort()).to.deep.equal([key(rgbaOf(BARS)), '0,0,0,0'].sort());
    });

    it(`fits ${codec} into a box of pixels at the largest whole module size, and still reads it`, async () => {
      const unit = sizeOf(await png(await gen(codec, { content, scale: '1' })));
      const width = unit.width * 3 + Math.floor(unit.width / 2);
      const fitted = await png(await gen(codec, { content, width: String(width) }));
      expect(sizeOf(fitted).width)
        .to.be.at.most(width)
        .and.at.least(unit.width * 3 - 3);
      expect(readBarcodePng(fitted, codec)).to.equal(content);
      // A box of both sides: the smaller ratio decides.
      const boxed = sizeOf(
        await png(await gen(codec, { content, width: String(width), heightpx: String(unit.height * 2) })),
      );
      expect(boxed.width).to.be.at.most(width);
      expect(boxed.height)
        .to.be.at.most(unit.height * 2)
        .and.at.least(unit.height * 2 - 3);
      // An SVG is given the box as its size, its proportions kept.
      const markup = await svg(await gen(codec, { content, width: String(width), format: 'svg' }));
      const [viewWidth, viewHeight] = viewBoxOf(markup);
      expect(markup).to.match(
        new RegExp(`^<svg width="${width}" height="${Math.round((width * viewHeight!) / viewWidth!)}" `),
      );
    });
  }

  it('draws every listed codec in the colours asked, as PNG and SVG', async () => {
    const codecs = (await (await server.get('/api/barcode/codecs', { Authorization: `Bearer ${token}` })).json()) as {
      id: string;
      example: string | null;
    }[];
    const failures: string[] = [];
    let drawn = 0;
    for (const { id, example } of codecs) {
      // Ultracode is a colour symbology: it draws its tiles in colours of its own (color is refused).
      if (example === null || id === 'ultracode') continue;
      const query = { content: example, color: BARS, background: GROUND };
      const response = await gen(id, query);
      if (response.status !== 200) {
        failures.push(`${id}: ${response.status} ${await response.text()}`);
        continue;
      }
      const colours = coloursOf(Buffer.from(await response.arrayBuffer()));
      // Text some symbologies print of their own is smoothed: its edge pixels blend the two colours.
      if (!colours.has(key(rgbaOf(BARS))) || !colours.has(key(rgbaOf(GROUND))))
        failures.push(`${id} as PNG: ${[...colours.keys()].slice(0, 4).join(' ')}`);
      if (colours.has('0,0,0,255') || colours.has('255,255,255,255'))
        failures.push(`${id} as PNG: black or white left`);
      const markup = await (await gen(id, { ...query, format: 'svg' })).text();
      if (!new RegExp(`(?:fill|stroke)="#${BARS}"`, 'i').test(markup) || !markup.includes(`fill="#${GROUND}"`))
        failures.push(`${id} as SVG: ${markup.slice(0, 200)}`);
      drawn++;
    }
    expect(failures).to.deep.equal([]);
    expect(drawn).to.be.greaterThan(100);
  });

  it('draws the text in its own colour and size, the bars’ colour by default', async () => {
    const query = { content: '5901234123457', includetext: 'true', color: BARS, background: GROUND };
    const plain = await png(await gen('ean13', query));
    const red = await png(await gen('ean13', { ...query, textcolor: TEXT }));
    expect(coloursOf(plain).has(key(rgbaOf(TEXT)))).to.equal(false);
    expect(coloursOf(red).get(key(rgbaOf(TEXT)))).to.be.greaterThan(100);
    expect(readBarcodePng(red, 'ean13')).to.equal('5901234123457');
    const larger = await png(await gen('ean13', { ...query, textsize: '24' }));
    expect(sizeOf(larger).height).to.be.greaterThan(sizeOf(plain).height);
    expect(readBarcodePng(larger, 'ean13')).to.equal('5901234123457');
    const code128Text = await svg(
      await gen('code128', { content: 'ABC', includetext: 'true', textcolor: TEXT, format: 'svg' }),
    );
    expect(code128Text).to.match(new RegExp(`<path d="[^"]+" fill="#${TEXT}"`, 'i'));
  });

  it('encodes a QR code at the error-correction level asked, drawn by lean-qr or by bwip-js (with a height)', async () => {
    const content = 'https://example.com/error-correction';
    const sides: number[] = [];
    for (const eclevel of ['L', 'M', 'Q', 'H']) {
      const image = await png(await gen('qrcode', { content, eclevel, scale: '1' }));
      expect(readBarcodePng(image, 'qrcode'), eclevel).to.equal(content);
      sides.push(sizeOf(image).width);
      // Stretched about square (a module is 2 points, 0.7 mm): what readers take.
      const stretched = await png(
        await gen('qrcode', { content, eclevel, height: ((sizeOf(image).width - 16) * 0.3528).toFixed(1) }),
      );
      expect(readBarcodePng(stretched, 'qrcode'), `${eclevel} with a height`).to.equal(content);
    }
    // More correction takes more modules: L's symbol is a smaller version than H's.
    expect(sides[0]).to.be.lessThan(sides[3]!);
    expect(new Set(sides).size).to.be.greaterThan(2);
    const low = await png(await gen('qrcode', { content, eclevel: 'L', height: '30' }));
    const high = await png(await gen('qrcode', { content, eclevel: 'H', height: '30' }));
    expect(low.equals(high)).to.equal(false);
    // Micro QR takes L to Q.
    await png(await gen('microqrcode', { content: '12345', eclevel: 'Q' }));
  });

  it('draws the quiet zone in SVG as in PNG, and a white ground when asked', async () => {
    for (const { codec, content } of READ_BACK.filter(({ codec }) => codec !== 'azteccode')) {
      const bare = viewBoxOf(await svg(await gen(codec, { content, format: 'svg', scale: '1' })));
      const zoned = await svg(await gen(codec, { content, format: 'svg', quietzone: 'true', scale: '1' }));
      const pngSize = sizeOf(await png(await gen(codec, { content, scale: '1' })));
      expect(viewBoxOf(zoned), codec).to.deep.equal([pngSize.width, pngSize.height]);
      expect(viewBoxOf(zoned)[0]!, codec).to.be.greaterThan(bare[0]!);
      const grounded = await svg(await gen(codec, { content, format: 'svg', background: 'white' }));
      expect(grounded, codec).to.match(/<rect width="100%" height="100%" fill="#FFFFFF" \/>/);
    }
  });

  it('never answers two requests that differ by one option with the same image', async () => {
    const base = { content: 'One option apart', color: '000000' };
    const variants: Record<string, string>[] = [
      {},
      { color: '1F3A93' },
      { background: 'FFF5CC' },
      // The other way from the format's default: a PNG is on white with its quiet zone, an SVG bare.
      { opposite: 'background' },
      { opposite: 'quietzone' },
      // Module sizes 5, 4 (Code 128; 15 for the QR code), 1 and 6 (7): images of different sizes.
      { scale: '5' },
      { width: '1000' },
      { heightpx: '80' },
      { width: '2000', heightpx: '500' },
      { height: '12' },
      { includetext: 'true' },
      { includetext: 'true', textcolor: 'B00020' },
      { includetext: 'true', textsize: '14' },
      { rotate: 'R' },
    ];
    for (const codec of ['code128', 'qrcode']) {
      for (const format of ['png', 'svg']) {
        const seen = new Map<string, string>();
        for (const variant of variants) {
          if (codec === 'qrcode' && 'includetext' in variant) continue;
          const opposite: Record<string, string> =
            variant.opposite === 'background'
              ? { background: format === 'png' ? 'transparent' : 'white' }
              : variant.opposite === 'quietzone'
                ? { quietzone: String(format === 'svg') }
                : {};
          const { opposite: _, ...options } = variant;
          const query: Record<string, string> = { ...base, ...options, ...opposite, format };
          // Asked twice, so the second answer comes from the cache.
          for (let time = 0; time < 2; time++) {
            const body = Buffer.from(await (await gen(codec, query)).arrayBuffer()).toString('base64');
            const earlier = seen.get(body);
            if (time === 0) {
              expect(earlier, `${codec} ${format} ${JSON.stringify(variant)} as ${earlier}`).to.equal(undefined);
              seen.set(body, JSON.stringify(variant));
            } else expect(earlier).to.equal(JSON.stringify(variant));
          }
        }
        if (codec === 'qrcode')
          for (const eclevel of ['L', 'Q', 'H']) {
            const body = Buffer.from(await (await gen(codec, { ...base, eclevel, format })).arrayBuffer());
            expect(seen.has(body.toString('base64')), eclevel).to.equal(false);
          }
      }
    }
  });

  it('decodes every option strictly: 400/7 naming it', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['code128', { color: '#1F3A93' }, 'color'],
      ['code128', { color: 'F00' }, 'color'],
      ['code128', { color: '1F3A93F' }, 'color'],
      ['code128', { color: 'GG0000' }, 'color'],
      ['code128', { color: 'red' }, 'color'],
      ['code128', { background: 'black' }, 'background'],
      ['code128', { background: 'White' }, 'background'],
      ['code128', { background: '#FFFFFF' }, 'background'],
      ['code128', { includetext: 'true', textcolor: '12345' }, 'textcolor'],
      ['code128', { includetext: 'true', textsize: '3' }, 'textsize'],
      ['code128', { includetext: 'true', textsize: '37' }, 'textsize'],
      ['code128', { includetext: 'true', textsize: '12.5' }, 'textsize'],
      ['code128', { width: '15' }, 'width'],
      ['code128', { width: '8193' }, 'width'],
      ['code128', { width: '300px' }, 'width'],
      ['code128', { heightpx: '-20' }, 'heightpx'],
      ['qrcode', { eclevel: 'X' }, 'eclevel'],
      ['qrcode', { eclevel: 'h' }, 'eclevel'],
      ['qrcode', { eclevel: '30' }, 'eclevel'],
    ];
    for (const [codec, option, name] of cases) {
      const body = await expectError(await gen(codec, { content: 'ABC', ...option }), 400, 7);
      expect(body.details, JSON.stringify(option)).to.include(name);
    }
    // A box too small for the symbol at one pixel a module, and one too large for the pixel limit.
    const cramped = await expectError(await gen('code128', { content: 'ABC', width: '40' }), 400, 7);
    expect(cramped.details).to.match(/^the image is \d+ × \d+ pixels at its smallest/);
    const huge = await expectError(await gen('qrcode', { content: 'ABC', width: '8000', heightpx: '8000' }), 400, 7);
    expect(huge.details).to.match(/larger than allowed/);
  });
});
