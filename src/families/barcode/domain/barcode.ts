/** The image formats a barcode is drawn in. */
export const IMAGE_FORMATS = ['png', 'svg'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Quarter turns: none, right (clockwise), left (counter-clockwise), inverted. */
export const ROTATIONS = ['N', 'R', 'L', 'I'] as const;
export type Rotation = (typeof ROTATIONS)[number];

/** The words a ground may be named by, beside a colour: opaque white, or transparent. */
export const BACKGROUND_WORDS = ['white', 'transparent'] as const;
export type BackgroundWord = (typeof BACKGROUND_WORDS)[number];

/** A colour as six hexadecimal digits, red, green and blue (`1A2B3C`), upper case. */
export type Rgb = string & { readonly __rgb: unique symbol };
/** Exactly six hexadecimal digits, no `#`: the only way a colour is written. */
export const RGB_PATTERN = /^[0-9A-Fa-f]{6}$/;
export const rgbOf = (hex: string): Rgb => hex.toUpperCase() as Rgb;
export const BLACK = rgbOf('000000');
export const WHITE = rgbOf('FFFFFF');

/** What lies under the light modules: a colour, or nothing. */
export type Background = Rgb | 'transparent';

/** QR Code's error-correction levels: about 7, 15, 25 and 30 % of the symbol recoverable. */
export const EC_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type EcLevel = (typeof EC_LEVELS)[number];

/** A symbology the renderer can draw, under the renderer's own id (`qrcode`, `ean13`, ...). */
export interface Symbology {
  readonly id: string;
  readonly description: string;
  /** Content the symbology accepts, to show a user what it expects; null when there is none to show. */
  readonly example: string | null;
}

/** The box, in pixels, an image is fitted into instead of being drawn at a given module size; a side may be free. */
export interface PixelBox {
  readonly width: number | undefined;
  readonly height: number | undefined;
}

export interface BarcodeRequest {
  readonly symbology: string;
  readonly content: string;
  readonly format: ImageFormat;
  /** Pixels per module (PNG) or the SVG's coordinate scale; chosen by the fitting when `fit` is given. */
  readonly scale: number;
  /** The image fitted into this box, at the largest module size that fits; `scale` is then not the caller's. */
  readonly fit: PixelBox | undefined;
  /** Bar height of linear symbologies, in millimetres; the symbology's default when absent. */
  readonly heightMm: number | undefined;
  /** Print the content in human-readable form under the bars. */
  readonly includeText: boolean;
  /** The human-readable text's size in drawing points (a linear module is one); the symbology's own when absent. */
  readonly textSize: number | undefined;
  readonly rotate: Rotation;
  /** The dark modules' colour. */
  readonly color: Rgb;
  /** The human-readable text's colour. */
  readonly textColor: Rgb;
  /** What lies under the light modules (and the quiet zone): a colour, or nothing. */
  readonly background: Background;
  /** Whether the image has the symbology's light margin (its quiet zone) around it. */
  readonly quietZone: boolean;
  /** QR Code's error-correction level; the symbology's default when absent. */
  readonly ecLevel: EcLevel | undefined;
}

export type RenderedBarcode =
  { readonly format: 'png'; readonly bytes: Uint8Array } | { readonly format: 'svg'; readonly markup: string };
