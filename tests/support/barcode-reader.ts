import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library';
import { PNG } from 'pngjs';

/** The symbologies the tests read back, by our (bwip-js) id. */
export const READABLE: Readonly<Record<string, BarcodeFormat>> = {
  qrcode: BarcodeFormat.QR_CODE,
  code128: BarcodeFormat.CODE_128,
  ean13: BarcodeFormat.EAN_13,
  datamatrix: BarcodeFormat.DATA_MATRIX,
  pdf417: BarcodeFormat.PDF_417,
};

/** White margin added around the image: bwip-js draws none, and readers need a quiet zone. */
const QUIET_ZONE = 20;

/**
 * Reads a barcode PNG back to its text with ZXing (pure JavaScript): the pixels, transparent
 * ones taken as white paper, go into a luminance image with a quiet zone around it.
 */
export function readBarcodePng(png: Buffer, symbology: string): string {
  const format = READABLE[symbology];
  if (format === undefined) throw new Error(`no reader for ${symbology}`);
  const image = PNG.sync.read(png);
  const width = image.width + 2 * QUIET_ZONE;
  const height = image.height + 2 * QUIET_ZONE;
  const luminance = new Uint8ClampedArray(width * height).fill(255);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const gray = (image.data[i]! * 299 + image.data[i + 1]! * 587 + image.data[i + 2]! * 114) / 1000;
      const alpha = image.data[i + 3]! / 255;
      luminance[(y + QUIET_ZONE) * width + x + QUIET_ZONE] = 255 - alpha * (255 - gray);
    }
  }
  const reader = new MultiFormatReader();
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  reader.setHints(hints);
  return reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height)))).getText();
}
