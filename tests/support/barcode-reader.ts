import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
  ZXingStringEncoding,
  type Result,
} from '@zxing/library';
import { PNG } from 'pngjs';

/**
 * ZXing's JavaScript port decodes ISO 8859-1 bytes, outside a browser, with decodeURIComponent:
 * as UTF-8. Latin-1 text in a PDF417 byte segment, a Data Matrix Base 256 segment, an Aztec or a
 * QR code then reads wrong or, not being UTF-8, not at all. This reads Latin-1 as Latin-1 (one
 * byte, one character) and leaves every other encoding to the TextDecoder ZXing would use.
 */
ZXingStringEncoding.customDecoder = (bytes: Uint8Array, encoding: string): string =>
  /^ISO[-_]?8859[-_]?1$/i.test(encoding)
    ? Buffer.from(bytes).toString('latin1')
    : new TextDecoder(encoding).decode(bytes);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The bytes start as every PNG file does. */
export const isPng = (bytes: Uint8Array): boolean =>
  bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.equals(bytes.subarray(0, PNG_SIGNATURE.length));

/** The symbologies the tests read back, by our (bwip-js) id. */
export const READABLE: Readonly<Record<string, BarcodeFormat>> = {
  qrcode: BarcodeFormat.QR_CODE,
  code128: BarcodeFormat.CODE_128,
  ean13: BarcodeFormat.EAN_13,
  datamatrix: BarcodeFormat.DATA_MATRIX,
  pdf417: BarcodeFormat.PDF_417,
  azteccode: BarcodeFormat.AZTEC,
};

/** White margin added around the image: bwip-js draws none, and readers need a quiet zone. */
const QUIET_ZONE = 20;

/**
 * Reads a barcode PNG back to its text with ZXing (pure JavaScript): the pixels, transparent
 * ones taken as white paper, go into a luminance image with a quiet zone around it.
 */
export function readBarcodePng(png: Buffer, symbology: string): string {
  return decode(png, symbology, 'white').getText();
}

/**
 * Reads a barcode PNG as placed on a black page: its pixels composited over black (a transparent
 * one is black), with more black around it, and no white margin added. Only an image that brings
 * its own light ground and quiet zone reads.
 */
export function readBarcodePngOnBlack(png: Buffer, symbology: string): string {
  return decode(png, symbology, 'black').getText();
}

/** Data Matrix's ECI character, followed by the ECI number plus one (so 27 for ECI 000026). */
const DATA_MATRIX_ECI = 241;
const UTF8_ECI = 26;

/**
 * Reads a Data Matrix that starts with ECI 000026 (UTF-8) as a reader that honours the ECI would.
 * ZXing's JavaScript port does not: it skips the ECI character (codeword 241) but reads the ECI
 * number after it as a character (codeword 27 as U+001A) and takes the bytes that follow as
 * Latin-1. So this checks the symbol's first two codewords are that mark, and reads the bytes
 * after it as UTF-8.
 */
export function readDataMatrixUtf8(png: Buffer): string {
  const result = decode(png, 'datamatrix');
  const codewords = [...result.getRawBytes().subarray(0, 2)];
  if (codewords[0] !== DATA_MATRIX_ECI || codewords[1] !== UTF8_ECI + 1)
    throw new Error(`no ECI 000026 first: codewords ${codewords.join(', ')}`);
  const text = result.getText();
  if (text.codePointAt(0) !== UTF8_ECI)
    throw new Error(`ZXing read the ECI number as ${JSON.stringify(text.slice(0, 1))}`);
  return Buffer.from(text.slice(1), 'latin1').toString('utf8');
}

function decode(png: Buffer, symbology: string, page: 'white' | 'black' = 'white'): Result {
  const format = READABLE[symbology];
  if (format === undefined) throw new Error(`no reader for ${symbology}`);
  const image = PNG.sync.read(png);
  const width = image.width + 2 * QUIET_ZONE;
  const height = image.height + 2 * QUIET_ZONE;
  const paper = page === 'white' ? 255 : 0;
  const luminance = new Uint8ClampedArray(width * height).fill(paper);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const gray = (image.data[i]! * 299 + image.data[i + 1]! * 587 + image.data[i + 2]! * 114) / 1000;
      const alpha = image.data[i + 3]! / 255;
      luminance[(y + QUIET_ZONE) * width + x + QUIET_ZONE] = paper + alpha * (gray - paper);
    }
  }
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height))));
}
