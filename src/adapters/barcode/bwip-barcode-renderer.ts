import { loadOnce } from '../caching/load-once.js';
import { overPixelLimit } from './image-limit.js';
import type { BarcodeRenderer, BarcodeRequest, RenderOutcome, Symbology } from '../../domain/barcode/barcode-renderer.js';

type BwipJs = typeof import('bwip-js');

interface Loaded {
  readonly bwip: BwipJs;
  readonly symbologies: readonly Symbology[];
  readonly ids: ReadonlySet<string>;
}

export interface BwipRendererOptions {
  /** Largest PNG, in pixels (width × height), the renderer will allocate. */
  readonly maxPixels: number;
}

/** `bwipp.ean13badLength#6878: EAN-13 must be 12 or 13 digits`: the encoder's id and its reason. */
const ENCODER_REFUSAL = /^bwipp\.(\w+)(?:#\d+)?:\s*([\s\S]*)$/;
/**
 * Symbologies whose encoder refuses every content unless given an option this API does not take
 * (Mailmark's `type`, rMQR's `version`, D3 AQR's `category`): neither listed nor drawn.
 */
const NEED_OPTIONS_WE_DO_NOT_TAKE = new Set(['mailmark', 'rectangularmicroqrcode', 'd3aqr']);
/** Options under which an example's `^NNN` sequences stand for control characters. */
const PARSED_EXAMPLE = /(?:^|\s)parse(?:fnc)?(?:\s|$)/;

/** bwip-js's own complaint when the PNG would exceed `sizelimit`. */
const OVER_SIZE_LIMIT = /^Image size over (?:default )?limit/;

/**
 * Barcodes drawn by bwip-js (Barcode Writer in Pure PostScript, compiled to JavaScript). The
 * library is 2 MB of code, so it is imported on first use, once, however many calls come first.
 */
export class BwipBarcodeRenderer implements BarcodeRenderer {
  private readonly load = loadOnce(async (): Promise<Loaded> => {
    const bwip = await import('bwip-js');
    const symbologies = bwip.symbolList
      .filter(({ bcid }) => !NEED_OPTIONS_WE_DO_NOT_TAKE.has(bcid))
      // Content is encoded as given, never parsed, so an example written in escapes would mislead.
      .map(({ bcid, desc, text, opts }) => ({ id: bcid, description: desc, example: PARSED_EXAMPLE.test(opts) && text.includes('^') ? null : text }));
    return { bwip, symbologies, ids: new Set(symbologies.map(({ id }) => id)) };
  });

  constructor(private readonly options: BwipRendererOptions) {}

  async symbologies(): Promise<readonly Symbology[]> {
    return (await this.load()).symbologies;
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    const { bwip, ids } = await this.load();
    if (!ids.has(request.symbology)) return { kind: 'unknown-symbology' };
    const options = {
      bcid: request.symbology,
      text: request.content,
      scale: request.scale,
      rotate: request.rotate,
      includetext: request.includeText,
      sizelimit: this.options.maxPixels,
      ...(request.heightMm === undefined ? {} : { height: request.heightMm }),
    };
    // Everything bwip-js throws while encoding comes from what it was asked to encode: its
    // encoder's refusals, and a few defects on inputs it was not built for (a TypeError from
    // databarexpanded given non-GS1 text). Either way the content is at fault, never the server.
    let drawn: unknown;
    try {
      drawn = request.format === 'svg' ? bwip.render(options, bwip.drawingSVG()) : bwip.render(options, bwip.drawingZlibPng());
    } catch (error) {
      return refusal(request, error, this.options.maxPixels);
    }
    // bwip-js answers `false` when the symbol has nothing to draw (flattermarken of "0").
    if (drawn === false) return { kind: 'content-refused', reason: 'the symbol would be empty' };
    if (request.format === 'svg') {
      if (typeof drawn !== 'string') throw new TypeError(`bwip-js drew ${typeof drawn} for an SVG`);
      return { kind: 'rendered', image: { format: 'svg', markup: drawn } };
    }
    // Compressing the pixels can fail only for reasons of the process (memory): a real error.
    const png = await (drawn as Promise<Buffer>);
    return { kind: 'rendered', image: { format: 'png', bytes: png } };
  }
}

function refusal(request: BarcodeRequest, error: unknown, maxPixels: number): RenderOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (OVER_SIZE_LIMIT.test(message)) return overPixelLimit(request, maxPixels);
  const refused = ENCODER_REFUSAL.exec(message);
  if (refused) return { kind: 'content-refused', reason: `${refused[2]!.trim()} (${refused[1]})` };
  return { kind: 'content-refused', reason: 'the encoder could not encode it' };
}
