/** The image formats a barcode is drawn in. */
export const IMAGE_FORMATS = ['png', 'svg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Quarter turns: none, right (clockwise), left (counter-clockwise), inverted. */
export const ROTATIONS = ['N', 'R', 'L', 'I'] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** The ground of a PNG: opaque white, so it scans on a dark page, or transparent. */
export const BACKGROUNDS = ['white', 'transparent'] as const;
export type Background = (typeof BACKGROUNDS)[number];

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
  /** What lies under the light modules of a PNG: opaque white, or nothing (SVG draws only the dark ones). */
  readonly background: Background;
  /** Whether a PNG has the symbology's light margin (its quiet zone) around it. */
  readonly quietZone: boolean;
}

export type RenderedBarcode =
  { readonly format: 'png'; readonly bytes: Uint8Array } | { readonly format: 'svg'; readonly markup: string };
