import { expect } from 'chai';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

/** Read back as drawn: one code, of the symbology asked, with the example's text. */
const READ_BACK_AS_DRAWN = [
  'ean13',
  'ean8',
  'code128',
  'code39',
  'code39ext',
  'interleaved2of5',
  'databaromni',
  'databarstacked',
  'databarlimited',
  'databarexpanded',
  'databarexpandedstacked',
  'rationalizedCodabar',
  'telepen',
  'telepennumeric',
  'pdf417',
  'micropdf417',
  'datamatrix',
  'qrcode',
  'microqrcode',
  'azteccode',
];
/**
 * Read as ZXing names them: a GS1 or HIBC variant as its base symbology, a UPC-A as the EAN-13
 * it is, the text as ZXing writes it; Codablock F row by row; a composite's linear part only.
 */
const READ_BACK_AS: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  upca: [['ean13', '0012345000058']],
  upce: [['upce', '0012345000058']],
  isbn: [['ean13', '9781565812314']],
  ismn: [['ean13', '9790260532113']],
  issn: [['ean13', '9770311175001']],
  mands: [['ean8', '00642118']],
  'gs1-128': [['code128', '(01)09521234543213(3103)000123']],
  ean14: [['code128', '(01)09528765432108']],
  sscc18: [['code128', '(00)095287654321012346']],
  code32: [['code32', 'A012345676']],
  pzn: [['code39', '-1234562']],
  itf14: [['interleaved2of5', '09521234543213']],
  identcode: [['interleaved2of5', '563102430313']],
  leitcode: [['interleaved2of5', '21348075016401']],
  databarstackedomni: [['databarstacked', '(01)24012345678905']],
  databartruncated: [['databaromni', '(01)09521234543213']],
  gs1northamericancoupon: [['databarexpandedstacked', '(8110)106141416543213500110000310123196000']],
  codablockf: [
    ['code128', 'bCODABLOC'],
    ['code128', '+K F 345678'],
    ['code128', '449012345678901004'],
    ['code128', '-0digitUN'],
  ],
  pdf417compact: [['pdf417', 'This is compact PDF417']],
  datamatrixrectangular: [['datamatrix', '1234']],
  datamatrixrectangularextension: [['datamatrix', '1234']],
  azteccodecompact: [['azteccode', '1234']],
  aztecrune: [['azteccode', '001']],
  ean13composite: [['ean13', '9520123456788']],
  ean8composite: [['ean8', '95200002']],
  upcacomposite: [['ean13', '0012345000058']],
  upcecomposite: [['upce', '0012345000058']],
  databaromnicomposite: [['databaromni', '(01)09521234543213']],
  databarstackedcomposite: [['databarstacked', '(01)09521234543213']],
  databarstackedomnicomposite: [['databarstacked', '(01)03612345678904']],
  databartruncatedcomposite: [['databaromni', '(01)09521234543213']],
  databarlimitedcomposite: [['databarlimited', '(01)09521234543213']],
  databarexpandedcomposite: [['databarexpanded', '(01)09521234543213(3103)001234']],
  databarexpandedstackedcomposite: [['databarexpandedstacked', '(01)09521234543213(10)ABCDEF']],
  'gs1-128composite': [['code128', '(00)095287654321012346']],
  gs1datamatrix: [['datamatrix', '(01)09521234543213(17)120508(10)ABCD1234(410)9501101020917']],
  gs1datamatrixrectangular: [['datamatrix', '(01)09521234543213(17)120508(10)ABCD1234(410)9501101020917']],
  gs1dldatamatrix: [['datamatrix', 'https://id.gs1.org/01/09521234543213/22/ABC%2D123?99=XYZ-987']],
  gs1qrcode: [['qrcode', '(01)09521234543213(8200)http://www.abc.net(10)ABCD1234(410)9501101020917']],
  gs1dlqrcode: [['qrcode', 'HTTPS://ID.GS1.ORG/01/09521234543213/22/ABC%2D123?99=XYZ-987']],
  hibccode39: [['code39ext', 'a999BJC5D6E71.']],
  hibccode128: [['code128', '+A999BJC5D6E71.']],
  hibcdatamatrix: [['datamatrix', '+A999BJC5D6E71.']],
  hibcdatamatrixrectangular: [['datamatrix', '+A999BJC5D6E71.']],
  hibcpdf417: [['pdf417', '+A999BJC5D6E71.']],
  hibcmicropdf417: [['micropdf417', '+A999BJC5D6E71.']],
  hibcqrcode: [['qrcode', '+A999BJC5D6E71.']],
  hibccodablockf: [
    ['code128', 'a+A999BJC'],
    ['code128', '+5D6E71.'],
    ['code128', ',kW'],
  ],
  hibcazteccode: [['azteccode', '+A999BJC5D6E71.']],
};
/** Drawn, and read by no reader we ship (postal codes, 2 of 5 variants, Code 93, DotCode, Han Xin, ...). */
const NOT_READ = [
  'ean5',
  'ean2',
  'code93',
  'code93ext',
  'pharmacode',
  'pharmacode2',
  'code2of5',
  'industrial2of5',
  'iata2of5',
  'matrix2of5',
  'coop2of5',
  'datalogic2of5',
  'code11',
  'bc412',
  'onecode',
  'postnet',
  'planet',
  'royalmail',
  'auspost',
  'kix',
  'japanpost',
  'msi',
  'plessey',
  'posicode',
  'code16k',
  'code49',
  'channelcode',
  'flattermarken',
  'raw',
  'daft',
  'symbol',
  'codeone',
  'hanxin',
  'dotcode',
  'ultracode',
  'gs1-cc',
  'gs1dotcode',
];

/** A PNG's pixels again as a JPEG (quality 90), on white: what a phone's photo of a screen would be, without the blur. */
function asJpeg(png: Buffer): Buffer {
  const image = PNG.sync.read(png);
  const data = Buffer.alloc(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    const alpha = image.data[i + 3]! / 255;
    for (let c = 0; c < 3; c++) data[i + c] = Math.round(255 + alpha * (image.data[i + c]! - 255));
    data[i + 3] = 255;
  }
  return jpeg.encode({ data, width: image.width, height: image.height }, 90).data;
}

describe('http: barcodes read back (POST /barcode/decode)', () => {
  let server: TestServer;
  let token: string;
  const draw = async (codec: string, query: Record<string, string>): Promise<Buffer> => {
    const response = await server.get(`/api/barcode/gen/${codec}?${new URLSearchParams(query).toString()}`, {
      Authorization: `Bearer ${token}`,
    });
    expect(response.status, codec).to.equal(200);
    return Buffer.from(await response.arrayBuffer());
  };
  const decode = (image: Buffer | string, as = token) =>
    server.send('POST', '/api/barcode/decode', {
      token: as,
      json: { image: typeof image === 'string' ? image : image.toString('base64') },
    });
  const codesIn = async (image: Buffer) => {
    const response = await decode(image);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    return ((await response.json()) as { codes: { symbology: string; text: string; position: unknown }[] }).codes;
  };

  before(async () => {
    server = await startServer({
      env: { UTILITY_API_RATE_LIMIT: 'off' },
      overrides: { barcode: { maxContentBytes: 1024, maxPixels: 2_500_000, cacheBytes: 0, maxDecodeBytes: 200_000 } },
    });
    token = await server.tokenFor(['Barcode::Generate', 'Barcode::Decode']);
  });
  after(async () => server.close());

  it('reads back the example of every symbology the drawer lists, drawn as a PNG', async () => {
    const codecs = (await (await server.get('/api/barcode/codecs', { Authorization: `Bearer ${token}` })).json()) as {
      id: string;
      example: string | null;
    }[];
    const drawn = codecs.filter(({ example }) => example !== null);
    // Every listed symbology with an example is named in exactly one of the three lists.
    expect([...READ_BACK_AS_DRAWN, ...Object.keys(READ_BACK_AS), ...NOT_READ].sort()).to.deep.equal(
      drawn.map(({ id }) => id).sort(),
    );
    const differences: string[] = [];
    for (const { id, example } of drawn) {
      const codes = await codesIn(await draw(id, { content: example! }));
      const read = codes.map(({ symbology, text }) => [symbology, text]);
      const expected = READ_BACK_AS_DRAWN.includes(id) ? [[id, example]] : (READ_BACK_AS[id] ?? []);
      if (JSON.stringify(read) !== JSON.stringify(expected))
        differences.push(`${id}: read ${JSON.stringify(read)}, expected ${JSON.stringify(expected)}`);
    }
    expect(differences).to.deep.equal([]);
  });

  it('answers where each code lies, and every code of an image', async () => {
    const image = await draw('qrcode', { content: 'where am I', scale: '2' });
    const [code] = await codesIn(image);
    // 4 modules of quiet zone at 4 pixels a module; a version-1 symbol of 21 modules is 84 pixels, its
    // last pixel 99. ZXing finds corners from the finder patterns: within a couple of pixels.
    expect([code!.symbology, code!.text]).to.deep.equal(['qrcode', 'where am I']);
    const corners = code!.position as Record<string, { x: number; y: number }>;
    const expected = { topLeft: [16, 16], topRight: [99, 16], bottomRight: [99, 99], bottomLeft: [16, 99] };
    expect(Object.keys(corners).sort()).to.deep.equal(Object.keys(expected).sort());
    for (const [corner, [x, y]] of Object.entries(expected)) {
      expect(corners[corner]!.x, corner).to.be.closeTo(x!, 2);
      expect(corners[corner]!.y, corner).to.be.closeTo(y!, 2);
    }
    // Two codes side by side on one white sheet.
    const left = PNG.sync.read(image);
    const right = PNG.sync.read(await draw('datamatrix', { content: 'and me', scale: '4' }));
    const sheet = new PNG({ width: left.width + right.width + 40, height: Math.max(left.height, right.height) });
    sheet.data.fill(255);
    PNG.bitblt(left, sheet, 0, 0, left.width, left.height, 0, 0);
    PNG.bitblt(right, sheet, 0, 0, right.width, right.height, left.width + 40, 0);
    const both = await codesIn(PNG.sync.write(sheet));
    expect(both.map(({ symbology, text }) => `${symbology}:${text}`).sort()).to.deep.equal([
      'datamatrix:and me',
      'qrcode:where am I',
    ]);
  });

  it('reads a JPEG as a PNG', async () => {
    for (const [codec, content] of [
      ['qrcode', 'https://example.com/jpeg'],
      ['code128', 'JPEG-128'],
      ['ean13', '5901234123457'],
      ['datamatrix', 'JPEG matrix'],
    ] as const) {
      const codes = await codesIn(asJpeg(await draw(codec, { content, scale: '3' })));
      expect(
        codes.map(({ symbology, text }) => [symbology, text]),
        codec,
      ).to.deep.equal([[codec, content]]);
    }
  });

  it('answers no codes for an image without any', async () => {
    const blank = new PNG({ width: 200, height: 100 });
    blank.data.fill(255);
    expect(await codesIn(PNG.sync.write(blank))).to.deep.equal([]);
  });

  it('refuses what is no PNG or JPEG, a file cut short, one too large and a body without an image', async () => {
    const png = await draw('qrcode', { content: 'cut' });
    const cases: [Buffer | string, RegExp][] = [
      [Buffer.from('hello'), /image must be a PNG or a JPEG file/],
      [Buffer.from('GIF89a...'), /image must be a PNG or a JPEG file/],
      [png.subarray(0, 60), /the PNG file could not be read/],
      [Buffer.alloc(0), /image must not be empty/],
      [Buffer.concat([png, Buffer.alloc(200_001 - png.length)]), /image must be at most 200000 bytes/],
      ['not base64!', /image/],
      ['aGVsbG8', /image/],
    ];
    for (const [image, reason] of cases) {
      const body = await expectError(await decode(image), 400, 11);
      expect(body.details, String(reason)).to.match(reason);
    }
    // A PNG whose header claims 5000 × 5000 pixels is refused before anything is decoded.
    const huge = Buffer.from(png);
    huge.writeUInt32BE(5000, 16);
    huge.writeUInt32BE(5000, 20);
    expect((await expectError(await decode(huge), 400, 11)).details).to.match(/at most 4194304 pixels/);
    await expectError(await server.send('POST', '/api/barcode/decode', { token, json: {} }), 400, 10);
  });

  it('needs Barcode::Decode', async () => {
    const image = await draw('qrcode', { content: 'permission' });
    const generateOnly = await server.tokenFor(['Barcode::Generate']);
    await expectError(await decode(image, generateOnly), 403, 1);
    const family = await server.tokenFor(['Barcode::*']);
    expect((await decode(image, family)).status).to.equal(200);
  });
});
