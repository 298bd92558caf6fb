import type { DecodedCode } from '../domain/decode-barcodes.js';
import type { BarcodeDecoder, DecodeOutcome } from '../domain/ports.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * A stand-in decoder for tests that need no real reader: it knows the codes of the images it is
 * given, finds none in any other PNG or JPEG file, and cannot read bytes that are neither.
 */
export class MemoryBarcodeDecoder implements BarcodeDecoder {
  private readonly known: ReadonlyMap<string, readonly DecodedCode[]>;

  constructor(images: readonly { readonly image: Uint8Array; readonly codes: readonly DecodedCode[] }[] = []) {
    this.known = new Map(images.map(({ image, codes }) => [Buffer.from(image).toString('base64'), codes]));
  }

  async decode(image: Uint8Array): Promise<DecodeOutcome> {
    const bytes = Buffer.from(image);
    const picture =
      (bytes.length > PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) ||
      bytes.subarray(0, JPEG_START.length).equals(JPEG_START);
    if (!picture) return { kind: 'unreadable', reason: 'not a PNG or JPEG file' };
    return { kind: 'decoded', codes: this.known.get(bytes.toString('base64')) ?? [] };
  }
}
