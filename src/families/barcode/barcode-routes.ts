import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import {
  BACKGROUND_WORDS,
  EC_LEVELS,
  IMAGE_FORMATS,
  RGB_PATTERN,
  ROTATIONS,
  rgbOf,
  type BackgroundWord,
  type RenderedBarcode,
  type Rgb,
} from './domain/barcode.js';
import type { DecodeBarcodes, DecodedCode } from './domain/decode-barcodes.js';
import {
  HEIGHT_MM,
  PIXELS,
  SCALE,
  TEXT_SIZE,
  type GenerateBarcode,
  type ListSymbologies,
} from './domain/generate-barcode.js';
import { invalidInput, type DomainError } from '../../domain/errors.js';
import { BarcodePermission } from './domain/permissions.js';
import { described, numberWritten, oneOf, trueOrFalse } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type ImageBody, type Route } from '../../platform/http/route-table.js';

export interface BarcodeRouteDependencies {
  readonly generate: GenerateBarcode;
  readonly listSymbologies: ListSymbologies;
  readonly decode: DecodeBarcodes;
  readonly maxContentBytes: number;
  readonly maxDecodeBytes: number;
}

/** Standard base64 with its padding, as every encoder writes it: no line breaks, no URL-safe letters. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const base64File = described(
  new t.Type<Buffer, string, unknown>(
    'the file in base64',
    (u): u is Buffer => Buffer.isBuffer(u),
    (u, c) => (typeof u === 'string' && BASE64.test(u) ? t.success(Buffer.from(u, 'base64')) : t.failure(u, c)),
    (bytes) => bytes.toString('base64'),
  ),
  { type: 'string', contentEncoding: 'base64', pattern: BASE64.source },
);

const point = t.strict({ x: t.number, y: t.number });
const decodedCodes = t.strict({
  codes: t.readonlyArray(
    t.strict({
      symbology: t.string,
      text: t.string,
      position: t.strict({ topLeft: point, topRight: point, bottomRight: point, bottomLeft: point }),
    }),
  ),
});

/** No sign, no exponent; the height may have two decimals. */
const WHOLE = /^\d{1,4}$/;
const TWO_DECIMALS = /^\d{1,4}(?:\.\d{1,2})?$/;

const symbologies = t.readonlyArray(
  t.strict({ id: t.string, description: t.string, example: t.union([t.string, t.null]) }),
);

/** An image as sent: SVG markup or PNG bytes; the document gives each its media type. */
const image = described(
  new t.Type<string | Buffer, string | Buffer, unknown>(
    'an image',
    (u): u is string | Buffer => typeof u === 'string' || Buffer.isBuffer(u),
    (u, c) => (typeof u === 'string' || Buffer.isBuffer(u) ? t.success(u) : t.failure(u, c)),
    t.identity,
  ),
  { type: 'string' },
);

const imageFormat = oneOf(IMAGE_FORMATS, 'png or svg');

/** Six hexadecimal digits, no `#`, either case; taken as upper case, so `ff0000` and `FF0000` are one colour. */
const rgb = described(
  new t.Type<Rgb, string, unknown>(
    'six hexadecimal digits (RRGGBB)',
    (u): u is Rgb => typeof u === 'string' && RGB_PATTERN.test(u),
    (u, c) => (typeof u === 'string' && RGB_PATTERN.test(u) ? t.success(rgbOf(u)) : t.failure(u, c)),
    String,
  ),
  { type: 'string', pattern: RGB_PATTERN.source },
);

const BACKGROUND_PATTERN = new RegExp(`^(?:${BACKGROUND_WORDS.join('|')}|[0-9A-Fa-f]{6})$`);
/** `white`, `transparent` or a colour. */
const background = described(
  new t.Type<BackgroundWord | Rgb, string, unknown>(
    'white, transparent or six hexadecimal digits (RRGGBB)',
    (u): u is BackgroundWord | Rgb => typeof u === 'string' && BACKGROUND_PATTERN.test(u),
    (u, c) => {
      if (typeof u !== 'string' || !BACKGROUND_PATTERN.test(u)) return t.failure(u, c);
      return t.success((BACKGROUND_WORDS as readonly string[]).includes(u) ? (u as BackgroundWord) : rgbOf(u));
    },
    String,
  ),
  { type: 'string', pattern: BACKGROUND_PATTERN.source },
);

const pixels = numberWritten(
  WHOLE,
  PIXELS.min,
  PIXELS.max,
  `an integer from ${PIXELS.min} to ${PIXELS.max}`,
  'integer',
);

const asImage = (image: RenderedBarcode): ImageBody =>
  image.format === 'svg'
    ? { contentType: 'image/svg+xml', body: image.markup }
    : {
        contentType: 'image/png',
        body: Buffer.isBuffer(image.bytes)
          ? image.bytes
          : Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength),
      };

export function barcodeRoutes(deps: BarcodeRouteDependencies): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/barcode/decode',
      permission: BarcodePermission.BarcodeDecode,
      summary:
        'Every barcode and QR code found in a PNG or JPEG image, with its symbology, text and position (read by ZXing)',
      body: {
        image: required(
          base64File,
          `a PNG or JPEG file in base64, at most ${deps.maxDecodeBytes} bytes once decoded and 4194304 pixels (2048 × 2048)`,
        ),
      },
      // Base64 writes 3 bytes as 4 characters; the JSON around it is a few bytes.
      maxBodyBytes: Math.ceil(deps.maxDecodeBytes / 3) * 4 + 256,
      response: decodedCodes,
      // Every drawing and reading worker busy and the queue full: 503/29.
      errors: ['ServiceBusy'],
      handle: async ({ body }) =>
        jsonOf(E.map((codes: readonly DecodedCode[]) => ({ codes }))(await deps.decode.execute(body.image))),
    }),
    defineRoute({
      method: 'GET',
      path: '/barcode/codecs',
      permission: BarcodePermission.BarcodeGenerate,
      summary: 'The barcode symbologies /barcode/gen/:codec draws, with an example content for each',
      response: symbologies,
      handle: async () => jsonOf(await deps.listSymbologies.execute()),
    }),
    defineRoute({
      method: 'GET',
      path: '/barcode/gen/:codec',
      permission: BarcodePermission.BarcodeGenerate,
      summary: 'A barcode of the content as a PNG or SVG image',
      // Any text: an id the renderer does not know is 404/22, not a malformed request.
      params: {
        codec: required(
          t.string,
          'a symbology id from /barcode/codecs, e.g. qrcode, code128, ean13, datamatrix, pdf417',
        ),
      },
      query: {
        // Its size and form are the use case's rules, checked there for every transport.
        content: required(t.string, `the text to encode, at most ${deps.maxContentBytes} bytes of UTF-8`),
        format: optional(imageFormat, 'png (default) or svg'),
        scale: optional(
          numberWritten(WHOLE, SCALE.min, SCALE.max, `an integer from ${SCALE.min} to ${SCALE.max}`, 'integer'),
          `pixels per module, default ${SCALE.default}; not with width or heightpx`,
        ),
        width: optional(
          pixels,
          "the image's width in pixels: drawn at the largest whole module size that fits (a PNG within it, an SVG sized to it); not with scale",
        ),
        heightpx: optional(
          pixels,
          "the image's height in pixels, fitted as width is (height stays the bars' height in millimetres); not with scale",
        ),
        height: optional(
          numberWritten(
            TWO_DECIMALS,
            HEIGHT_MM.min,
            HEIGHT_MM.max,
            `a number of millimetres from ${HEIGHT_MM.min} to ${HEIGHT_MM.max}`,
          ),
          'bar height of linear symbologies in millimetres',
        ),
        includetext: optional(trueOrFalse, 'print the content under the bars (default false)'),
        textsize: optional(
          numberWritten(
            WHOLE,
            TEXT_SIZE.min,
            TEXT_SIZE.max,
            `an integer from ${TEXT_SIZE.min} to ${TEXT_SIZE.max}`,
            'integer',
          ),
          "the text's font size in points, one point a module of a linear code (the symbology's own by default); with includetext=true",
        ),
        color: optional(rgb, 'the colour of the bars as RRGGBB (default 000000, black)'),
        textcolor: optional(rgb, 'the colour of the text as RRGGBB (default: color); with includetext=true'),
        rotate: optional(
          oneOf(ROTATIONS, 'N, R, L or I'),
          'N (default), R (clockwise), L (counter-clockwise) or I (upside down)',
        ),
        background: optional(
          background,
          'the ground: white, transparent or a colour as RRGGBB (default white for a PNG, so it scans on a dark page; transparent for an SVG)',
        ),
        quietzone: optional(
          trueOrFalse,
          "the symbology's light margin around the image, as print guides ask (default true for a PNG, false for an SVG)",
        ),
        eclevel: optional(
          oneOf(EC_LEVELS, 'L, M, Q or H'),
          "a QR code's error correction: L (7 %), M (15 %, default), Q (25 %) or H (30 %); QR symbologies only",
        ),
      },
      headers: {
        'x-format': optional(
          imageFormat,
          'the same as the format query parameter; when both are given they must agree',
        ),
      },
      produces: ['image/png', 'image/svg+xml'],
      response: image,
      // An unknown symbology is 404/22; content it cannot encode, or a format given twice differently,
      // 400/7; every drawing worker busy and the queue full, 503/29.
      errors: ['InformationNotFound', 'InvalidQueryParameter', 'ServiceBusy'],
      handle: async ({ params, query, headers }): Promise<E.Either<DomainError, ImageBody>> => {
        const fromHeader = headers['x-format'];
        if (query.format !== undefined && fromHeader !== undefined && query.format !== fromHeader) {
          return E.left(
            invalidInput('format', `format=${query.format} and the x-format header (${fromHeader}) disagree; give one`),
          );
        }
        const outcome = await deps.generate.execute({
          symbology: params.codec,
          content: query.content,
          format: query.format ?? fromHeader,
          scale: query.scale,
          widthPx: query.width,
          heightPx: query.heightpx,
          heightMm: query.height,
          includeText: query.includetext,
          textSize: query.textsize,
          rotate: query.rotate,
          color: query.color,
          textColor: query.textcolor,
          background: query.background,
          quietZone: query.quietzone,
          ecLevel: query.eclevel,
        });
        return E.map(asImage)(outcome);
      },
    }),
  ];
}
