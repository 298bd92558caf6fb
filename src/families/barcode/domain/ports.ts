import { identifier } from '../../../domain/identifier.js';
import type { BarcodeRequest, RenderedBarcode, Symbology } from './barcode.js';

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
