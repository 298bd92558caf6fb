import type { DecodedCode } from '../domain/decode-barcodes.js';
import type { BarcodeDecoder, DecodeOutcome } from '../domain/ports.js';
import type { BwipWorkerPool, ZxingCode } from './bwip-worker-pool.js';

/**
 * ZXing's format names as the ids /barcode/codecs draws them by (bwip-js's), so that a code read
 * back names the symbology it was drawn as. A format we draw under no id of ours (DX film edge)
 * keeps ZXing's name. GS1 and HIBC content is told by ZXing as its base symbology (a GS1-128 is a
 * Code 128 whose text starts with its application identifiers).
 */
const OUR_IDS: Readonly<Record<string, string>> = {
  QRCode: 'qrcode',
  QRCodeModel1: 'qrcode',
  QRCodeModel2: 'qrcode',
  MicroQRCode: 'microqrcode',
  RMQRCode: 'rectangularmicroqrcode',
  Aztec: 'azteccode',
  AztecCode: 'azteccode',
  AztecRune: 'aztecrune',
  DataMatrix: 'datamatrix',
  PDF417: 'pdf417',
  CompactPDF417: 'pdf417compact',
  MicroPDF417: 'micropdf417',
  MaxiCode: 'maxicode',
  Code128: 'code128',
  Code39: 'code39',
  Code39Std: 'code39',
  Code39Ext: 'code39ext',
  Code32: 'code32',
  PZN: 'pzn',
  Code93: 'code93',
  Codabar: 'rationalizedCodabar',
  ITF: 'interleaved2of5',
  ITF14: 'itf14',
  DataBar: 'databaromni',
  DataBarOmni: 'databaromni',
  DataBarStk: 'databarstacked',
  DataBarStkOmni: 'databarstackedomni',
  DataBarLtd: 'databarlimited',
  DataBarExp: 'databarexpanded',
  DataBarExpStk: 'databarexpandedstacked',
  EAN13: 'ean13',
  EAN8: 'ean8',
  EAN5: 'ean5',
  EAN2: 'ean2',
  ISBN: 'isbn',
  UPCA: 'upca',
  UPCE: 'upce',
  Telepen: 'telepen',
  TelepenAlpha: 'telepen',
  TelepenNumeric: 'telepennumeric',
};

const codeOf = ({ format, text, position }: ZxingCode): DecodedCode => ({
  symbology: OUR_IDS[format] ?? format,
  text,
  position: {
    topLeft: { x: position.topLeft.x, y: position.topLeft.y },
    topRight: { x: position.topRight.x, y: position.topRight.y },
    bottomRight: { x: position.bottomRight.x, y: position.bottomRight.y },
    bottomLeft: { x: position.bottomLeft.x, y: position.bottomLeft.y },
  },
});

/**
 * Codes read by zxing-wasm (ZXing-C++ in WebAssembly) in the drawing workers' pool: reading a
 * large photo takes tens of milliseconds to seconds, which would hold every other request on the
 * event loop. It shares the drawings' workers and queue, so the two together are bounded.
 */
export class PooledBarcodeDecoder implements BarcodeDecoder {
  constructor(private readonly pool: BwipWorkerPool) {}

  async decode(image: Uint8Array): Promise<DecodeOutcome> {
    const read = await this.pool.decode(image);
    return read.kind === 'decoded' ? { kind: 'decoded', codes: read.codes.map(codeOf) } : read;
  }
}
