import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { BACKGROUNDS, IMAGE_FORMATS, ROTATIONS, type RenderedBarcode } from './domain/barcode.js';
import { HEIGHT_MM, SCALE, type GenerateBarcode, type ListSymbologies } from './domain/generate-barcode.js';
import { invalidInput, type DomainError } from '../../domain/errors.js';
import { BarcodePermission } from './domain/permissions.js';
import { described, numberWritten, oneOf, trueOrFalse } from '../../platform/http/codecs.js';
import { optional, required } from '../../platform/http/fields.js';
import { defineRoute, jsonOf, type ImageBody, type Route } from '../../platform/http/route-table.js';

export interface BarcodeRouteDependencies {
  readonly generate: GenerateBarcode;
  readonly listSymbologies: ListSymbologies;
  readonly maxContentBytes: number;
}

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
          `pixels per module, default ${SCALE.default}`,
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
        rotate: optional(
          oneOf(ROTATIONS, 'N, R, L or I'),
          'N (default), R (clockwise), L (counter-clockwise) or I (upside down)',
        ),
        background: optional(
          oneOf(BACKGROUNDS, 'white or transparent'),
          'the ground of a PNG: white (default, scans on a dark page) or transparent',
        ),
        quietzone: optional(
          trueOrFalse,
          "the symbology's light margin around a PNG, as print guides ask (default true)",
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
          heightMm: query.height,
          includeText: query.includetext,
          rotate: query.rotate,
          background: query.background,
          quietZone: query.quietzone,
        });
        return E.map(asImage)(outcome);
      },
    }),
  ];
}
