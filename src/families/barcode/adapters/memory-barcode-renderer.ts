import type { BarcodeRequest, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';

/**
 * A symbology the memory renderer pretends to draw: what content it takes is a pattern, and what
 * characters it can carry at all, when given, the highest code point.
 */
export interface MemorySymbology extends Symbology {
  readonly accepts: RegExp;
  readonly carriesUpTo?: number;
}

/** The smallest valid PNG: one transparent pixel. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const escapeXml = (text: string): string => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A stand-in renderer for tests that need no real encoder: it knows the symbologies it is given,
 * refuses content that does not match their pattern, and draws a placeholder whose notional size
 * (11 pixels a character, 3 a millimetre of height, times the scale) is checked like a real one.
 */
export class MemoryBarcodeRenderer implements BarcodeRenderer {
  private readonly byId: ReadonlyMap<string, MemorySymbology>;

  constructor(
    symbologies: readonly MemorySymbology[],
    private readonly maxPixels: number,
  ) {
    this.byId = new Map(symbologies.map((symbology) => [symbology.id, symbology]));
  }

  async symbologies(): Promise<readonly Symbology[]> {
    return [...this.byId.values()].map(({ id, description, example }) => ({ id, description, example }));
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    const symbology = this.byId.get(request.symbology);
    if (!symbology) return { kind: 'unknown-symbology' };
    if (request.ecLevel !== undefined && symbology.id !== 'qrcode')
      return { kind: 'option-refused', option: 'eclevel', reason: `${symbology.id} has no error-correction level` };
    const max = symbology.carriesUpTo ?? Number.POSITIVE_INFINITY;
    const beyond = [...request.content].find((character) => character.codePointAt(0)! > max);
    if (beyond !== undefined)
      return { kind: 'content-refused', reason: `"${beyond}" is beyond what ${symbology.id} carries` };
    if (!symbology.accepts.test(request.content))
      return { kind: 'content-refused', reason: `content must match ${symbology.accepts.source}` };
    const width = (request.content.length * 11 + 20) * request.scale;
    const height = (request.heightMm ?? 10) * 3 * request.scale;
    if (request.format === 'png') {
      if (width * height > this.maxPixels)
        return { kind: 'too-large', reason: `the image would be larger than ${this.maxPixels} pixels` };
      return { kind: 'rendered', image: { format: 'png', bytes: ONE_PIXEL_PNG } };
    }
    const markup = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"><title>${escapeXml(request.content)}</title></svg>`;
    return { kind: 'rendered', image: { format: 'svg', markup } };
  }
}
