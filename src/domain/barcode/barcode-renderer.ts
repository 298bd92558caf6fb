/** The image formats a barcode is drawn in. */
export const IMAGE_FORMATS = ['png', 'svg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Quarter turns: none, right (clockwise), left (counter-clockwise), inverted. */
export const ROTATIONS = ['N', 'R', 'L', 'I'] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** A symbology the renderer can draw, under the renderer's own id (`qrcode`, `ean13`, ...). */
export interface Symbology {
  readonly id: string;
  readonly description: string;
  /** Content the symbology accepts, to show a user what it expects; null when there is none to show. */
  readonly example: string | null;
}

export interface BarcodeRequest {
  readonly symbology: string;
  readonly content: string;
  readonly format: ImageFormat;
  /** Pixels per module (PNG) or the SVG's coordinate scale. */
  readonly scale: number;
  /** Bar height of linear symbologies, in millimetres; the symbology's default when absent. */
  readonly heightMm: number | undefined;
  /** Print the content in human-readable form under the bars. */
  readonly includeText: boolean;
  readonly rotate: Rotation;
}

export type RenderedBarcode =
  | { readonly format: 'png'; readonly bytes: Uint8Array }
  | { readonly format: 'svg'; readonly markup: string };

/**
 * What drawing gives: the image; "no such symbology"; the content refused by the symbology
 * (letters in an EAN-13, too much for a QR code), with the encoder's reason; or an image that
 * would be larger than the renderer allows at this scale and height.
 */
export type RenderOutcome =
  | { readonly kind: 'rendered'; readonly image: RenderedBarcode }
  | { readonly kind: 'unknown-symbology' }
  | { readonly kind: 'content-refused'; readonly reason: string }
  | { readonly kind: 'too-large'; readonly reason: string };

/** A barcode encoder and drawer, as the domain needs it. */
export interface BarcodeRenderer {
  symbologies(): Promise<readonly Symbology[]>;
  render(request: BarcodeRequest): Promise<RenderOutcome>;
}
export const BarcodeRenderer = Symbol.for('BarcodeRenderer');
