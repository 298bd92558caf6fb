import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import type { BarcodeDecoder } from './ports.js';

/** A point of an image, in pixels from its top left corner. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Where a code lies in the image: its four corners, as the code reads (top left is its start). */
export interface CodePosition {
  readonly topLeft: Point;
  readonly topRight: Point;
  readonly bottomRight: Point;
  readonly bottomLeft: Point;
}

/** A code found in an image: its symbology (the id /barcode/codecs uses where we draw it), its text and where it lies. */
export interface DecodedCode {
  readonly symbology: string;
  readonly text: string;
  readonly position: CodePosition;
}

/** The image formats a decoding takes, told by their first bytes. */
export type ImageKind = 'png' | 'jpeg';

/**
 * Pixels a decoded image may have (2048 × 2048, a 4-megapixel photo): a small file can be a huge
 * image (a PNG compresses one colour 1000 to 1), and the reader's WebAssembly memory only grows.
 * Measured here, a worker grew about 16 MB reading a noisy 2000 × 2000 JPEG in 1.3 s, and 105 MB
 * reading a 3000 × 3000 one in 2.3 s, and keeps that memory for its next task.
 */
export const MAX_DECODE_PIXELS = 4_194_304;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_START = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);

interface ImageHeader {
  readonly kind: ImageKind;
  /** Width and height as the header says; undefined when it cannot be found (the decoder then refuses it). */
  readonly size: { readonly width: number; readonly height: number } | undefined;
}

/** The kind of an image and its size, from its header, without decoding it. */
export function imageHeaderOf(bytes: Uint8Array): ImageHeader | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (startsWith(bytes, PNG_SIGNATURE))
    // IHDR is the first chunk: its width and height follow the signature, length and type.
    return {
      kind: 'png',
      size: bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined,
    };
  if (startsWith(bytes, JPEG_START)) return { kind: 'jpeg', size: jpegSize(bytes, view) };
  return undefined;
}

/** A start-of-frame marker's height and width (SOF0 to SOF15 but DHT, JPG and DAC, which share the range). */
function jpegSize(bytes: Uint8Array, view: DataView): ImageHeader['size'] {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    at += 2 + length;
  }
  return undefined;
}

/**
 * Finds every code in a PNG or JPEG image, with its symbology, text and position. The image is
 * checked here, before the decoder sees it: its size in bytes, its kind by its first bytes, and
 * its pixels by its header; the decoder reads it whole.
 */
export class DecodeBarcodes {
  constructor(
    private readonly decoder: BarcodeDecoder,
    private readonly maxBytes: number,
  ) {}

  async execute(image: Uint8Array): Promise<E.Either<DomainError, readonly DecodedCode[]>> {
    if (image.length === 0) return E.left(invalidInput('image', 'image must not be empty'));
    if (image.length > this.maxBytes)
      return E.left(invalidInput('image', `image must be at most ${this.maxBytes} bytes (it is ${image.length})`));
    const header = imageHeaderOf(image);
    if (!header) return E.left(invalidInput('image', 'image must be a PNG or a JPEG file'));
    if (header.size && header.size.width * header.size.height > MAX_DECODE_PIXELS)
      return E.left(
        invalidInput(
          'image',
          `image must have at most ${MAX_DECODE_PIXELS} pixels (2048 × 2048); it is ${header.size.width} × ${header.size.height}`,
        ),
      );
    const outcome = await this.decoder.decode(image);
    switch (outcome.kind) {
      case 'decoded':
        return E.right(outcome.codes);
      case 'unreadable':
        return E.left(
          invalidInput('image', `the ${header.kind.toUpperCase()} file could not be read: ${outcome.reason}`),
        );
      case 'busy':
        return E.left({ _tag: 'ServiceBusy', details: `Too many barcodes are being drawn or read: ${outcome.reason}` });
    }
  }
}
