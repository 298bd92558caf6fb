import { correction, generate, mode } from 'lean-qr';
import { toPngBuffer } from 'lean-qr/extras/node_export';
import type { BarcodeRequest, EcLevel, Rgb, Rotation, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';
import { overPixelLimit } from './image-limit.js';
import { quietZoneOf } from './quiet-zone.js';

/** The symbology this renderer draws itself, under the id the wrapped renderer lists it by. */
const QR_CODE = 'qrcode';
/** Drawing units per module at scale 1, as bwip-js draws 2-D symbols, so both draw alike. */
const UNITS_PER_MODULE = 2;
/** lean-qr's error code when the content does not fit the largest QR code. */
const TOO_MUCH_DATA = 4;
/**
 * Error correction at exactly the level asked, M (15% of the symbol recoverable) unless asked
 * otherwise, what bwip-js and most generators default to. Text beyond ASCII is written as UTF-8
 * (marked by its ECI), never as the standard's default Latin-1 nor as Shift JIS kanji: readers
 * commonly take unmarked bytes for UTF-8 (ZXing misreads "ü" sent as Latin-1), and UTF-8 is what a
 * web client sends us.
 */
const qrOptions = (level: EcLevel) =>
  ({
    minCorrectionLevel: correction[level],
    maxCorrectionLevel: correction[level],
    modes: [mode.numeric, mode.alphaNumeric, mode.ascii, mode.utf8],
  }) as const;

const TRANSPARENT = [0, 0, 0, 0] as const;
const rgbaOf = (rgb: Rgb) =>
  [
    Number.parseInt(rgb.slice(0, 2), 16),
    Number.parseInt(rgb.slice(2, 4), 16),
    Number.parseInt(rgb.slice(4, 6), 16),
    255,
  ] as const;

/** A square grid of modules, dark or light, addressed column then row from the top left. */
interface ModuleGrid {
  readonly size: number;
  get(x: number, y: number): boolean;
}

export interface LeanQrRendererOptions {
  /** Largest PNG, in pixels (width × height), the renderer will allocate. */
  readonly maxPixels: number;
}

/**
 * QR codes encoded by lean-qr; every other symbology, and QR codes asked with a bar height, by the
 * renderer it wraps. QR codes are the symbology asked for most, and bwip-js spends 3 to 7 ms on one
 * of 20 characters, almost all of it in its PostScript-derived encoder; lean-qr encodes the same
 * code, mask chosen by the standard's penalty rules, in about 0.12 ms. The drawing (SVG path, PNG
 * size) follows bwip-js's geometry, so a client sees the same kind of image for every symbology.
 */
export class LeanQrBarcodeRenderer implements BarcodeRenderer {
  constructor(
    private readonly options: LeanQrRendererOptions,
    private readonly others: BarcodeRenderer,
  ) {}

  symbologies(): Promise<readonly Symbology[]> {
    return this.others.symbologies();
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    // bwip-js stretches a 2-D symbol to a bar height; that odd request is left to it, as before,
    // and so is text under a QR code, which it refuses.
    if (request.symbology !== QR_CODE || request.heightMm !== undefined || request.includeText)
      return this.others.render(request);
    const level = request.ecLevel ?? 'M';
    let encoded: ModuleGrid;
    try {
      encoded = generate(request.content, qrOptions(level));
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== TOO_MUCH_DATA) throw error;
      return {
        kind: 'content-refused',
        reason: `The input data is too long for the largest QR code (version 40) at error correction ${level}`,
      };
    }
    const modules = rotated(encoded, request.rotate);
    const moduleSize = UNITS_PER_MODULE * request.scale;
    // The quiet zone in modules, as bwip-js pads its QR codes (its points over the points of a module).
    const pad = request.quietZone ? quietZoneOf(QR_CODE).left / UNITS_PER_MODULE : 0;
    if (request.format === 'svg')
      return { kind: 'rendered', image: { format: 'svg', markup: svgOf(modules, moduleSize, pad, request) } };
    const side = (modules.size + 2 * pad) * moduleSize;
    if (side * side > this.options.maxPixels) return overPixelLimit(request, this.options.maxPixels);
    // Dark modules on the ground asked or on nothing: what bwip-js draws given the same options.
    const off = request.background === 'transparent' ? TRANSPARENT : rgbaOf(request.background);
    return {
      kind: 'rendered',
      image: { format: 'png', bytes: toPngBuffer(modules, { pad, scale: moduleSize, on: rgbaOf(request.color), off }) },
    };
  }
}

/** The grid as seen after a quarter turn clockwise (R), counter-clockwise (L) or a half turn (I). */
function rotated(grid: ModuleGrid, rotation: Rotation): ModuleGrid {
  const last = grid.size - 1;
  switch (rotation) {
    case 'N':
      return grid;
    case 'R':
      return { size: grid.size, get: (x, y) => grid.get(y, last - x) };
    case 'L':
      return { size: grid.size, get: (x, y) => grid.get(last - y, x) };
    case 'I':
      return { size: grid.size, get: (x, y) => grid.get(last - x, last - y) };
  }
}

/**
 * One path of rectangles, one per run of dark modules in a row: a few microseconds, where tracing
 * the outlines of connected regions (lean-qr's own SVG export) takes longer than the encoding.
 */
function svgOf(
  grid: ModuleGrid,
  moduleSize: number,
  pad: number,
  { color, background }: Pick<BarcodeRequest, 'color' | 'background'>,
): string {
  const margin = pad * moduleSize;
  const side = grid.size * moduleSize + 2 * margin;
  let path = '';
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size;) {
      if (!grid.get(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < grid.size && grid.get(x, y)) x++;
      path += `M${margin + start * moduleSize} ${margin + y * moduleSize}h${(x - start) * moduleSize}v${moduleSize}h-${(x - start) * moduleSize}z`;
    }
  }
  // As bwip-js writes them: a ground only when there is one, a fill only when not the default black.
  const ground = background === 'transparent' ? '' : `<rect width="100%" height="100%" fill="#${background}" />\n`;
  const fill = color === '000000' ? '' : ` fill="#${color}"`;
  return `<svg viewBox="0 0 ${side} ${side}" xmlns="http://www.w3.org/2000/svg">\n${ground}<path d="${path}"${fill} />\n</svg>\n`;
}
