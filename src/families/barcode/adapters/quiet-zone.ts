/**
 * The light margin each symbology needs around it to scan, in bwip-js drawing points at scale 1,
 * side by side. A linear symbol's module is 1 point wide and a matrix symbol's 2, as bwip-js draws
 * them. The widths are the print guides' minimums: ISO/IEC 18004 (QR: 4 modules; Micro QR: 2),
 * 16022 (Data Matrix: 1), 15438 (PDF417: 2), 16023 (MaxiCode: 1), 20830 (Han Xin: 3), AIM DotCode
 * (3), GS1 General Specifications for EAN/UPC (EAN-13: 11 left, 7 right; UPC-A: 9; EAN-8: 7;
 * UPC-E: 9 left, 7 right), and 10 modules either side of every other linear symbol (Code 128,
 * Code 39, Interleaved 2 of 5, Codabar ask for at least that). Aztec needs none (ISO/IEC 24778).
 */
export interface QuietZone {
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly left: number;
}

const LINEAR_MODULE_POINTS = 1;
const MATRIX_MODULE_POINTS = 2;

const around = (points: number): QuietZone => ({ top: points, right: points, bottom: points, left: points });
const beside = (left: number, right: number): QuietZone => ({
  top: 0,
  right: right * LINEAR_MODULE_POINTS,
  bottom: 0,
  left: left * LINEAR_MODULE_POINTS,
});
const matrix = (modules: number): QuietZone => around(modules * MATRIX_MODULE_POINTS);

/** By id pattern, first match wins; ids as bwip-js names them. */
const QUIET_ZONES: readonly (readonly [RegExp, QuietZone])[] = [
  [/^microqrcode$/, matrix(2)],
  [/qrcode$/, matrix(4)],
  [/datamatrix/, matrix(1)],
  [/aztec/, around(0)],
  [/pdf417/, around(2 * LINEAR_MODULE_POINTS)],
  [/^maxicode$/, matrix(1)],
  [/^hanxin$/, matrix(3)],
  [/dotcode$/, matrix(3)],
  [/^(?:codeone|ultracode)$/, matrix(1)],
  [/^(?:ean13|isbn|ismn|issn|ean13composite)$/, beside(11, 7)],
  [/^(?:ean8|ean8composite)$/, beside(7, 7)],
  [/^(?:upca|upcacomposite)$/, beside(9, 9)],
  [/^(?:upce|upcecomposite)$/, beside(9, 7)],
  [/^(?:ean2|ean5)$/, beside(7, 5)],
];
/** Every other symbology is linear (bars, or stacked bars): 10 modules either side. */
const LINEAR = beside(10, 10);

export const quietZoneOf = (symbology: string): QuietZone =>
  QUIET_ZONES.find(([pattern]) => pattern.test(symbology))?.[1] ?? LINEAR;
