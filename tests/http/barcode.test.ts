import { expect } from 'chai';
import { PNG } from 'pngjs';
import { isPng, readBarcodePng, readBarcodePngOnBlack, readDataMatrixUtf8 } from '../support/barcode-reader.js';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** The codecs the issue names, each with content it can hold. */
const NAMED = [
  { codec: 'qrcode', content: 'https://example.org/ünïcode?x=1&y=2' },
  { codec: 'code128', content: 'Order-2026/0042' },
  { codec: 'ean13', content: '5901234123457' },
  { codec: 'datamatrix', content: 'Lot 7 · exp 2027-01' },
  { codec: 'pdf417', content: 'PDF417: a stacked linear symbology' },
];

describe('http: barcodes', () => {
  let server: TestServer;
  let token: string;
  const get = (path: string, headers: Record<string, string> = {}) =>
    server.get(path, { Authorization: `Bearer ${token}`, ...headers });
  const gen = (codec: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
    get(`/api/barcode/gen/${encodeURIComponent(codec)}?${new URLSearchParams(query).toString()}`, headers);
  const png = async (response: Response): Promise<Buffer> => {
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(isPng(bytes)).to.equal(true);
    return bytes;
  };

  before(async () => {
    // Over 900 requests within seconds (every codec, oddities and examples): more than one window's default rate.
    server = await startServer({
      env: { UTILITY_API_RATE_LIMIT: 'off' },
      overrides: { barcode: { maxContentBytes: 300, maxPixels: 2_500_000, cacheBytes: 1_048_576 } },
    });
    token = await server.tokenFor(['Barcode::Generate']);
  });
  after(async () => server.close());

  for (const { codec, content } of NAMED) {
    it(`draws ${codec} as a PNG that reads back to the content`, async () => {
      const image = await png(await gen(codec, { content }));
      expect(readBarcodePng(image, codec)).to.equal(content);
    });

    it(`draws ${codec} as SVG: well-formed markup of the right type`, async () => {
      const response = await gen(codec, { content, format: 'svg' });
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.match(/^image\/svg\+xml(?:; charset=utf-8)?$/);
      const svg = await response.text();
      expect(svg).to.match(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>/);
      expect(svg.trimEnd()).to.match(/<\/svg>$/);
      // Path data only: absolute and relative moves, lines and closes, and numbers.
      expect(svg).to.match(/<path [^>]*d="[MLHVZmlhvz0-9. -]+"/);
      // One root element, every tag closed: what an XML parser would insist on.
      const tags = [...svg.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)];
      const open: string[] = [];
      for (const [, closing, name, selfClosing] of tags) {
        if (selfClosing) continue;
        if (closing) expect(open.pop()).to.equal(name);
        else open.push(name!);
      }
      expect(open).to.deep.equal([]);
    });
  }

  it('draws the example of every listed codec, as PNG and as SVG', async () => {
    const codecs = (await (await get('/api/barcode/codecs')).json()) as { id: string; example: string | null }[];
    const failures: string[] = [];
    let drawn = 0;
    for (const { id, example } of codecs) {
      if (example === null) continue;
      for (const format of ['png', 'svg'] as const) {
        const response = await gen(id, { content: example, format });
        const body = Buffer.from(await response.arrayBuffer());
        const type = response.headers.get('content-type') ?? '';
        const ok =
          response.status === 200 &&
          (format === 'png'
            ? type === 'image/png' && isPng(body)
            : /^image\/svg\+xml\b/.test(type) && body.toString('utf8').startsWith('<svg'));
        if (ok) drawn++;
        else failures.push(`${id} as ${format}: ${response.status} ${type} ${body.subarray(0, 200).toString('utf8')}`);
      }
    }
    expect(failures).to.deep.equal([]);
    expect(drawn).to.be.greaterThan(200);
  });

  it('reads text beyond ASCII back as given: Latin-1 as its bytes, more as UTF-8 marked by its ECI, else 400/7', async () => {
    for (const codec of ['code128', 'datamatrix']) {
      expect(readBarcodePng(await png(await gen(codec, { content: 'café' })), codec), codec).to.equal('café');
    }
    expect(readDataMatrixUtf8(await png(await gen('datamatrix', { content: '中文' })))).to.equal('中文');
    // Content is never parsed for escapes, even where the ECI is written as one.
    expect(readDataMatrixUtf8(await png(await gen('datamatrix', { content: '^ECI000003中^FNC1^' })))).to.equal(
      '^ECI000003中^FNC1^',
    );
    const refused = await expectError(await gen('code128', { content: '中' }), 400, 7);
    expect(refused.details).to.equal(
      'code128 cannot encode this content: code128 carries ISO 8859-1 (Latin-1) text at most, and no ECI to mark UTF-8; "中" (U+4E2D) is beyond it',
    );
    expect((await expectError(await gen('ean13', { content: '590123412345中' }), 400, 7)).details).to.include('"中"');
  });

  it('takes x-format as the format, and refuses a header that disagrees with the query (400/7)', async () => {
    const response = await gen('qrcode', { content: 'header' }, { 'x-format': 'svg' });
    expect(response.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(await response.text()).to.match(/^<svg /);
    await png(await gen('qrcode', { content: 'header', format: 'png' }, { 'x-format': 'png' }));
    const disagreeing = await expectError(
      await gen('qrcode', { content: 'header', format: 'png' }, { 'x-format': 'svg' }),
      400,
      7,
    );
    expect(disagreeing.details).to.include('x-format');
    await expectError(await gen('qrcode', { content: 'header' }, { 'x-format': 'gif' }), 400, 9);
    await expectError(await gen('qrcode', { content: 'x', format: 'gif' }), 400, 7);
  });

  it('applies scale, height, includetext and rotate', async () => {
    const small = PNG.sync.read(await png(await gen('code128', { content: 'ABC', scale: '1', height: '10' })));
    const large = PNG.sync.read(await png(await gen('code128', { content: 'ABC', scale: '3', height: '10' })));
    expect(large.width).to.equal(small.width * 3);
    const taller = PNG.sync.read(await png(await gen('code128', { content: 'ABC', scale: '1', height: '20' })));
    expect(taller.height).to.be.greaterThan(small.height * 1.8);
    const withText = PNG.sync.read(
      await png(await gen('code128', { content: 'ABC', scale: '1', height: '10', includetext: 'true' })),
    );
    expect(withText.height).to.be.greaterThan(small.height);
    const turned = PNG.sync.read(
      await png(await gen('code128', { content: 'ABC', scale: '1', height: '10', rotate: 'R' })),
    );
    expect([turned.width, turned.height]).to.deep.equal([small.height, small.width]);
    const upsideDown = await png(await gen('code128', { content: 'Upside', scale: '2', rotate: 'I' }));
    expect(readBarcodePng(upsideDown, 'code128')).to.equal('Upside');
    const qrTurned = await png(await gen('qrcode', { content: 'turned', rotate: 'L', includetext: 'false' }));
    expect(readBarcodePng(qrTurned, 'qrcode')).to.equal('turned');
  });

  it('refuses options out of their bounds with 400/7 naming the option', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ scale: '0' }, 'scale'],
      [{ scale: '11' }, 'scale'],
      [{ scale: '2.5' }, 'scale'],
      [{ scale: '1e1' }, 'scale'],
      [{ height: '0.5' }, 'height'],
      [{ height: '101' }, 'height'],
      [{ height: '-3' }, 'height'],
      [{ height: 'tall' }, 'height'],
      [{ includetext: 'yes' }, 'includetext'],
      [{ rotate: 'X' }, 'rotate'],
      [{ rotate: 'r' }, 'rotate'],
    ];
    for (const [option, name] of cases) {
      const body = await expectError(await gen('code128', { content: 'ABC', ...option }), 400, 7);
      expect(body.details, JSON.stringify(option)).to.include(name);
    }
    const accepted = await gen('code128', { content: 'ABC', height: '12.5', scale: '10' });
    expect(accepted.status).to.equal(200);
  });

  it('answers 404/22 for an unknown codec, listing none of ours as unknown', async () => {
    const body = await expectError(await gen('nosuchcodec', { content: 'x' }), 404, 22);
    expect(body.details).to.include('nosuchcodec');
    await expectError(await gen('QRCODE', { content: 'x' }), 404, 22);
    await expectError(await gen('__proto__', { content: 'x' }), 404, 22);
  });

  it('answers 400/6 without content, and refuses the old name data (400/7), naming content', async () => {
    expect((await expectError(await gen('qrcode', {}), 400, 6)).details).to.include('content');
    expect((await expectError(await gen('qrcode', { data: 'hello' }), 400, 7)).details).to.match(
      /^Unknown query parameter\(s\): data \(this endpoint takes content, /,
    );
  });

  it('answers 400/7 with the encoder’s reason for content the symbology cannot hold', async () => {
    const letters = await expectError(await gen('ean13', { content: 'ABCDEFGHIJKL' }), 400, 7);
    expect(letters.details).to.match(/ean13 cannot encode this content: .+/);
    const short = await expectError(await gen('ean13', { content: '123' }), 400, 7);
    expect(short.details).to.include('12 or 13 digits');
    const badCheck = await expectError(await gen('ean13', { content: '5901234123450' }), 400, 7);
    expect(badCheck.details).to.match(/check/i);
    const roomy = await startServer({
      overrides: { barcode: { maxContentBytes: 8192, maxPixels: 2_500_000, cacheBytes: 0 } },
    });
    try {
      const roomyToken = await roomy.tokenFor(['Barcode::Generate']);
      const tooLongForQr = await roomy.get(`/api/barcode/gen/qrcode?content=${'x'.repeat(7100)}`, {
        Authorization: `Bearer ${roomyToken}`,
      });
      expect((await expectError(tooLongForQr, 400, 7)).details).to.match(
        /qrcode cannot encode this content: .*too long/i,
      );
    } finally {
      await roomy.close();
    }
    // databarexpanded fails inside bwip-js on text that is not GS1: still the content's fault.
    await expectError(await gen('databarexpanded', { content: 'A' }), 400, 7);
    // flattermarken of "0" has nothing to draw: refused rather than a response that never comes.
    await expectError(await gen('flattermarken', { content: '0' }), 400, 7);
    await expectError(await gen('flattermarken', { content: '0', format: 'svg' }), 400, 7);
  });

  it('answers 400/7 for empty content, content over the configured size, and images over the pixel limit', async () => {
    await expectError(await gen('qrcode', { content: '' }), 400, 7);
    const longest = await gen('qrcode', { content: 'y'.repeat(300) });
    expect(longest.status).to.equal(200);
    await longest.arrayBuffer();
    const over = await expectError(await gen('qrcode', { content: 'y'.repeat(301) }), 400, 7);
    expect(over.details).to.include('content');
    // 300 bytes of two-byte characters is 150 of them.
    await expectError(await gen('qrcode', { content: 'é'.repeat(151) }), 400, 7);
    const huge = await expectError(
      await gen('code128', { content: 'W'.repeat(60), scale: '10', height: '100' }),
      400,
      7,
    );
    expect(huge.details).to.match(/larger than allowed/);
  });

  it('answers odd content in any listed codec with an image or 400/7, never a 500', async () => {
    const listed = (await (await get('/api/barcode/codecs')).json()) as { id: string }[];
    const odd = ['%ED%A0%80', '%00%01%7F', '%5E', '(', '%C3%A9%E4%B8%AD%F0%9F%98%80', ' ', '0'];
    const seen = new Set<number>();
    for (const { id } of listed) {
      for (const content of odd) {
        const response = await get(`/api/barcode/gen/${id}?content=${content}&format=svg&includetext=true`);
        seen.add(response.status);
        expect([200, 400], `${id} ${content}`).to.include(response.status);
        if (response.status === 400)
          expect((await response.json()) as { code: number }, `${id} ${content}`).to.deep.include({ code: 7 });
        else await response.arrayBuffer();
      }
    }
    expect([...seen].sort()).to.deep.equal([200, 400]);
  });

  it('lists the codecs from bwip-js itself, the named ones among them, under the same permission', async () => {
    const response = await get('/api/barcode/codecs');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const codecs = (await response.json()) as { id: string; description: string; example: string }[];
    expect(codecs.length).to.be.greaterThan(100);
    for (const codec of codecs) expect(Object.keys(codec)).to.deep.equal(['id', 'description', 'example']);
    const ids = codecs.map((codec) => codec.id);
    expect(ids).to.include.members(NAMED.map(({ codec }) => codec));
    expect(codecs.find((codec) => codec.id === 'ean13')).to.deep.equal({
      id: 'ean13',
      description: 'EAN-13',
      example: '9520123456788',
    });
  });

  it('needs Barcode::Generate for both endpoints', async () => {
    const other = await server.tokenFor(['Cryptography::Encrypt']);
    await expectError(await server.get('/api/barcode/codecs', { Authorization: `Bearer ${other}` }), 403, 1);
    await expectError(
      await server.get('/api/barcode/gen/qrcode?content=x', { Authorization: `Bearer ${other}` }),
      403,
      1,
    );
    await expectError(await server.get('/api/barcode/gen/qrcode?content=x'), 401, 3);
    const family = await server.tokenFor(['Barcode::*']);
    expect(
      (await server.get('/api/barcode/gen/qrcode?content=x', { Authorization: `Bearer ${family}` })).status,
    ).to.equal(200);
  });

  it('answers a repeated request from the cache with the same image', async () => {
    const first = Buffer.from(await (await gen('datamatrix', { content: 'again', format: 'svg' })).arrayBuffer());
    const second = Buffer.from(await (await gen('datamatrix', { content: 'again', format: 'svg' })).arrayBuffer());
    expect(second.equals(first)).to.equal(true);
  });
});

describe('http: barcodes drawn in worker threads, with a bounded queue', () => {
  let server: TestServer;
  let token: string;

  before(async () => {
    // One worker and one waiting drawing: a third drawing at once finds no room.
    server = await startServer({
      overrides: {
        barcode: { maxContentBytes: 1024, maxPixels: 2_500_000, cacheBytes: 1_048_576, workers: 1, queue: 1 },
      },
    });
    token = await server.tokenFor(['Barcode::Generate']);
  });
  after(async () => server.close());

  it('answers 503/29 with Retry-After when every worker is drawing and the queue is full; the drawings it took all succeed', async () => {
    // Fresh 1 KB Aztec codes, each 0.1–0.4 s of encoder: nothing in the cache, all in flight together.
    const contents = Array.from({ length: 6 }, (_, i) => `${i}:${'fresh aztec content '.repeat(50)}`.slice(0, 1000));
    const responses = await Promise.all(
      contents.map((content) =>
        server.get(`/api/barcode/gen/azteccode?${new URLSearchParams({ content }).toString()}`, {
          Authorization: `Bearer ${token}`,
        }),
      ),
    );
    const drawn = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 503);
    expect(
      drawn.length + refused.length,
      `statuses ${responses.map((response) => response.status).join(', ')}`,
    ).to.equal(contents.length);
    // The one being drawn and the one waiting, at least; the rest refused at once.
    expect(drawn.length).to.be.at.least(2);
    expect(refused.length).to.be.at.least(1);
    for (const response of drawn) {
      const content = contents[responses.indexOf(response)]!;
      expect(readBarcodePng(Buffer.from(await response.arrayBuffer()), 'azteccode')).to.equal(content);
    }
    for (const response of refused) {
      expect(response.headers.get('retry-after')).to.equal('1');
      const body = await expectError(response, 503, 29);
      expect(body.message).to.equal('The service is unavailable, try again later');
      expect(body.details).to.match(/barcode drawing workers are busy/);
    }
    // Refused for room, not for its content: asked again once the queue drained, it is drawn.
    const again = contents[responses.indexOf(refused[0]!)]!;
    const retried = await server.get(
      `/api/barcode/gen/azteccode?${new URLSearchParams({ content: again }).toString()}`,
      { Authorization: `Bearer ${token}` },
    );
    expect(retried.status).to.equal(200);
  });
});

describe('http: barcode PNGs scan on any page', () => {
  let server: TestServer;
  let token: string;
  const gen = (codec: string, query: Record<string, string>) =>
    server.get(`/api/barcode/gen/${encodeURIComponent(codec)}?${new URLSearchParams(query).toString()}`, {
      Authorization: `Bearer ${token}`,
    });
  const png = async (response: Response): Promise<Buffer> => {
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    return Buffer.from(await response.arrayBuffer());
  };

  before(async () => {
    server = await startServer();
    token = await server.tokenFor(['Barcode::Generate']);
  });
  after(async () => server.close());

  for (const { codec, content } of NAMED) {
    it(`draws ${codec} as a PNG on opaque white with its quiet zone, read on a black page; background=transparent and quietzone=false opt out`, async () => {
      const image = await png(await gen(codec, { content }));
      expect(readBarcodePngOnBlack(image, codec)).to.equal(content);
      const pixels = PNG.sync.read(image);
      // The corner is the quiet zone: opaque white.
      expect([...pixels.data.subarray(0, 4)]).to.deep.equal([255, 255, 255, 255]);
      // Without the white ground, or without the margin, black meets the symbol's edge and it does not read.
      const transparent = await png(await gen(codec, { content, background: 'transparent' }));
      expect(PNG.sync.read(transparent).data[3]).to.equal(0);
      expect(() => readBarcodePngOnBlack(transparent, codec)).to.throw();
      expect(readBarcodePng(transparent, codec)).to.equal(content);
      const bare = PNG.sync.read(await png(await gen(codec, { content, quietzone: 'false' })));
      expect(bare.width).to.be.lessThan(pixels.width);
    });
  }

  it('refuses a background or quietzone it does not know with 400/7 naming it', async () => {
    expect((await expectError(await gen('qrcode', { content: 'x', background: 'black' }), 400, 7)).details).to.include(
      'background',
    );
    expect((await expectError(await gen('qrcode', { content: 'x', quietzone: 'no' }), 400, 7)).details).to.include(
      'quietzone',
    );
  });

  it('refuses an option that would change nothing of the image (400/7 naming it), rather than drop it', async () => {
    const refused = async (codec: string, query: Record<string, string>, headers: Record<string, string> = {}) => {
      const response = await server.get(`/api/barcode/gen/${codec}?${new URLSearchParams(query).toString()}`, {
        Authorization: `Bearer ${token}`,
        ...headers,
      });
      return (await expectError(response, 400, 7)).details;
    };
    // No text is drawn under a matrix or stacked symbol; MaxiCode has a size of its own.
    expect(await refused('qrcode', { content: 'x', includetext: 'true' })).to.equal(
      'qrcode is drawn without text under it: includetext=true would change nothing',
    );
    expect(await refused('datamatrix', { content: 'x', includetext: 'true', format: 'svg' })).to.match(
      /^datamatrix is drawn without text/,
    );
    expect(await refused('maxicode', { content: 'x', height: '20' })).to.equal(
      'maxicode is drawn at a height of its own: height would change nothing',
    );
    // Options about the text under the bars need the text; a module size and a pixel box exclude each other.
    expect(await refused('code128', { content: 'x', textsize: '12' })).to.equal(
      'textsize is about the text under the bars: it needs includetext=true',
    );
    expect(await refused('code128', { content: 'x', textcolor: 'FF0000', includetext: 'false' })).to.match(
      /^textcolor is about the text under the bars/,
    );
    expect(await refused('code128', { content: 'x', scale: '2', width: '300' })).to.match(
      /^scale sets the module size and width or heightpx choose it/,
    );
    // Bars the colour of their ground would not be seen.
    expect(await refused('qrcode', { content: 'x', color: 'FFFFFF' })).to.equal(
      'color and background are both FFFFFF: the bars would not be seen',
    );
    // Only QR symbologies have an error-correction level; Micro QR has no H.
    expect(await refused('code128', { content: 'x', eclevel: 'H' })).to.match(
      /^code128 has no error-correction level L, M, Q or H/,
    );
    expect(await refused('microqrcode', { content: '12345', eclevel: 'H' })).to.equal(
      'microqrcode takes error-correction level L, M, Q, not H',
    );
    // What the image is anyway may be asked for.
    for (const query of [
      { includetext: 'false' },
      { format: 'svg', background: 'transparent', quietzone: 'false' },
      { format: 'svg', background: 'white', quietzone: 'true' },
      { height: '20' },
      { eclevel: 'M' },
      { color: 'FFFFFF', background: 'transparent' },
    ] as Record<string, string>[]) {
      expect((await gen('qrcode', { content: 'x', ...query })).status, JSON.stringify(query)).to.equal(200);
    }
    expect((await gen('code128', { content: 'x', includetext: 'true', height: '20' })).status).to.equal(200);
  });
});
