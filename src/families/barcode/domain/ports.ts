import { identifier } from '../../../domain/identifier.js';
import type { BarcodeRequest, RenderedBarcode, Symbology } from './barcode.js';
import type { DecodedCode } from './decode-barcodes.js';

/** The options a symbology may have no use for, by their query names. */
export type RefusableOption = 'includetext' | 'height' | 'eclevel' | 'color';

/**
 * What drawing gives: the image; "no such symbology"; the content refused by the symbology
 * (letters in an EAN-13, too much for a QR code), with the encoder's reason; an option that
 * would change nothing of this symbology's drawing (text under a QR code), refused rather than
 * dropped; or an image that would be larger than the renderer allows at this scale and height;
 * or no room to draw it now (every drawing slot and the queue before them taken), which may pass.
 */
export type RenderOutcome =
  | { readonly kind: 'rendered'; readonly image: RenderedBarcode }
  | { readonly kind: 'unknown-symbology' }
  | { readonly kind: 'content-refused'; readonly reason: string }
  | { readonly kind: 'option-refused'; readonly option: RefusableOption; readonly reason: string }
  | { readonly kind: 'too-large'; readonly reason: string }
  | { readonly kind: 'busy'; readonly reason: string };

/** A barcode encoder and drawer, as the domain needs it. */
export interface BarcodeRenderer {
  symbologies(): Promise<readonly Symbology[]>;
  render(request: BarcodeRequest): Promise<RenderOutcome>;
}
export const BarcodeRenderer = identifier<BarcodeRenderer>('BarcodeRenderer');

/**
 * What reading an image gives: every code found (none is an answer too); an image the decoder could
 * not read as a picture (a cut or corrupt file), with its reason; or no room to read it now.
 */
export type DecodeOutcome =
  | { readonly kind: 'decoded'; readonly codes: readonly DecodedCode[] }
  | { readonly kind: 'unreadable'; readonly reason: string }
  | { readonly kind: 'busy'; readonly reason: string };

/** A barcode reader, as the domain needs it: a PNG or JPEG file in, the codes in it out. */
export interface BarcodeDecoder {
  decode(image: Uint8Array): Promise<DecodeOutcome>;
}
export const BarcodeDecoder = identifier<BarcodeDecoder>('BarcodeDecoder');
