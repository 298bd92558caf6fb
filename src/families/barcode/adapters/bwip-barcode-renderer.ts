import { loadOnce } from '../../../platform/caching/load-once.js';
import { InProcessBwipEngine, type BwipEngine } from './bwip-engine.js';
import { overPixelLimit } from './image-limit.js';
import { quietZoneOf } from './quiet-zone.js';
import type { BarcodeRequest, EcLevel, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';

interface Loaded {
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
/**
 * Symbologies bwip-js draws with no human-readable text whatever `includetext` says (matrix and
 * stacked symbols), and those a bar height does not change: the option asked of them would be
 * dropped, so it is refused. Found by drawing every symbology's example both ways (bwip-js 4).
 */
export const PRINTS_NO_TEXT: ReadonlySet<string> = new Set([
  'databarstacked',
  'databarstackedomni',
  'databarexpanded',
  'databarexpandedstacked',
  'codablockf',
  'code16k',
  'code49',
  'raw',
  'daft',
  'symbol',
  'pdf417',
  'pdf417compact',
  'micropdf417',
  'datamatrix',
  'datamatrixrectangular',
  'datamatrixrectangularextension',
  'qrcode',
  'microqrcode',
  'swissqrcode',
  'maxicode',
  'azteccode',
  'azteccodecompact',
  'aztecrune',
  'codeone',
  'hanxin',
  'dotcode',
  'ultracode',
  'gs1-cc',
  'databarstackedcomposite',
  'databarstackedomnicomposite',
  'databarexpandedcomposite',
  'databarexpandedstackedcomposite',
  'gs1datamatrix',
  'gs1datamatrixrectangular',
  'gs1qrcode',
  'gs1dotcode',
  'hibcdatamatrix',
  'hibcdatamatrixrectangular',
  'hibcpdf417',
  'hibcmicropdf417',
  'hibcqrcode',
  'hibccodablockf',
  'hibcazteccode',
]);
export const TAKES_NO_HEIGHT: ReadonlySet<string> = new Set([
  'symbol',
  'maxicode',
  'databarstackedcomposite',
  'databarstackedomnicomposite',
  'databarexpandedstackedcomposite',
]);

/** Ultracode's tiles are coloured by the symbology itself: no bar colour applies. */
const DRAWS_ITS_OWN_COLOURS: ReadonlySet<string> = new Set(['ultracode']);

/**
 * The error-correction levels each QR symbology takes (`eclevel`): QR Code and its GS1 and HIBC
 * forms all four, Micro QR up to Q (ISO/IEC 18004 gives it no H). Every other symbology has no such
 * level (Swiss QR Code's is fixed at M by the QR-bill standard; PDF417's and Aztec's are numbers,
 * not these letters), so `eclevel` asked of it is refused.
 */
const EC_LEVELS_OF: ReadonlyMap<string, readonly EcLevel[]> = new Map([
  ['qrcode', ['L', 'M', 'Q', 'H']],
  ['gs1qrcode', ['L', 'M', 'Q', 'H']],
  ['hibcqrcode', ['L', 'M', 'Q', 'H']],
  ['microqrcode', ['L', 'M', 'Q']],
]);

/** Options under which an example's `^NNN` sequences stand for control characters. */
const PARSED_EXAMPLE = /(?:^|\s)parse(?:fnc)?(?:\s|$)/;

/** bwip-js's own complaint when the PNG would exceed `sizelimit`. */
const OVER_SIZE_LIMIT = /^Image size over (?:default )?limit/;

const ASCII_MAX = 0x7f;
const LATIN1_MAX = 0xff;
/** ECI 000026, UTF-8, as BWIPP's `parsefnc` takes it at the start of the text. */
const UTF8_ECI = '^ECI000026';

/**
 * The symbologies that can say their bytes are UTF-8, each with the highest code point it writes
 * as one Latin-1 byte without saying so; content with a character above it is written as UTF-8
 * after ECI 000026. These are the encoders whose BWIPP `parseinput` call passes `eci` (pdf417,
 * micropdf417, datamatrix, qrcode, maxicode, azteccode, codeone, dotcode) and their own variants
 * that keep it; every other encoder refuses `^ECI` as an unknown function character (code128,
 * code93, code16k, code49, codablockf, posicode, hanxin, ultracode) or takes narrower content
 * (ASCII in Code 39 and 93 extended and Telepen; digits in EAN, UPC, 2 of 5; postal codes, GS1 and
 * HIBC data, Micro QR, Aztec runes). Readers (ZXing among them) take unmarked bytes in all of them
 * as ISO 8859-1 (Latin-1), so content up to U+00FF needs no mark.
 * A QR code drawn here (one asked with a height) is marked from beyond ASCII, as lean-qr marks the
 * others, so the same content gives the same bytes with or without a height.
 */
const UTF8_ECI_ABOVE: ReadonlyMap<string, number> = new Map([
  ['azteccode', LATIN1_MAX],
  ['azteccodecompact', LATIN1_MAX],
  ['codeone', LATIN1_MAX],
  ['datamatrix', LATIN1_MAX],
  ['datamatrixrectangular', LATIN1_MAX],
  ['datamatrixrectangularextension', LATIN1_MAX],
  ['dotcode', LATIN1_MAX],
  ['maxicode', LATIN1_MAX],
  ['micropdf417', LATIN1_MAX],
  ['pdf417', LATIN1_MAX],
  ['pdf417compact', LATIN1_MAX],
  ['qrcode', ASCII_MAX],
]);
/** The ids of the symbologies that mark UTF-8 text with its ECI. */
export const UTF8_ECI_SYMBOLOGIES: readonly string[] = [...UTF8_ECI_ABOVE.keys()];
/**
 * Swiss QR Code (the QR-bill) is UTF-8 by its own standard, unmarked (its BWIPP encoder takes no
 * ECI): given to bwip-js as text, which bwip-js writes as UTF-8.
 */
const UTF8_UNMARKED = new Set(['swissqrcode']);

/** What bwip-js is given for the content: its text and the options that say how to read it. */
type BwipText =
  | { readonly kind: 'text'; readonly text: string; readonly binarytext: boolean; readonly parsefnc: boolean }
  | { readonly kind: 'beyond'; readonly character: string };

/**
 * The content as bytes for bwip-js, which by default writes a JS string as unmarked UTF-8 bytes
 * (readers take unmarked bytes as Latin-1, so "café" read back as "cafÃ©"). Latin-1 content is
 * given as its own bytes (`binarytext`); beyond it, UTF-8 bytes after ECI 000026 where the
 * symbology can carry that mark, with every `^` of the content doubled so `parsefnc` reads it as
 * itself and no content can write another ECI or function character; elsewhere nothing.
 */
export function bwipText(symbology: string, content: string): BwipText {
  if (UTF8_UNMARKED.has(symbology)) return { kind: 'text', text: content, binarytext: false, parsefnc: false };
  const eciAbove = UTF8_ECI_ABOVE.get(symbology);
  const above = (max: number) => [...content].find((character) => character.codePointAt(0)! > max);
  if (eciAbove !== undefined && above(eciAbove) !== undefined) {
    const bytes = Buffer.from(content, 'utf8').toString('latin1');
    return { kind: 'text', text: UTF8_ECI + bytes.replaceAll('^', '^^'), binarytext: true, parsefnc: true };
  }
  const beyond = above(LATIN1_MAX);
  if (beyond !== undefined) return { kind: 'beyond', character: beyond };
  return { kind: 'text', text: content, binarytext: true, parsefnc: false };
}

const codePoint = (character: string): string =>
  `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Barcodes drawn by bwip-js (Barcode Writer in Pure PostScript, compiled to JavaScript). The
 * library is 2 MB of code, so the engine imports it on first use, once, however many calls come
 * first. The engine runs bwip-js on this thread (the default) or in worker threads; what to draw
 * and what a refusal means is decided here either way.
 */
export class BwipBarcodeRenderer implements BarcodeRenderer {
  private readonly load = loadOnce(async (): Promise<Loaded> => {
    const symbologies = (await this.engine.symbols())
      .filter(({ bcid }) => !NEED_OPTIONS_WE_DO_NOT_TAKE.has(bcid))
      // Content is encoded as given, never parsed, so an example written in escapes would mislead.
      .map(({ bcid, desc, text, opts }) => ({
        id: bcid,
        description: desc,
        example: PARSED_EXAMPLE.test(opts) && text.includes('^') ? null : text,
      }));
    return { symbologies, ids: new Set(symbologies.map(({ id }) => id)) };
  });

  constructor(
    private readonly options: BwipRendererOptions,
    private readonly engine: BwipEngine = new InProcessBwipEngine(),
  ) {}

  async symbologies(): Promise<readonly Symbology[]> {
    return (await this.load()).symbologies;
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    const { ids } = await this.load();
    if (!ids.has(request.symbology)) return { kind: 'unknown-symbology' };
    if (request.includeText && PRINTS_NO_TEXT.has(request.symbology)) {
      return {
        kind: 'option-refused',
        option: 'includetext',
        reason: `${request.symbology} is drawn without text under it: includetext=true would change nothing`,
      };
    }
    if (request.heightMm !== undefined && TAKES_NO_HEIGHT.has(request.symbology)) {
      return {
        kind: 'option-refused',
        option: 'height',
        reason: `${request.symbology} is drawn at a height of its own: height would change nothing`,
      };
    }
    if (request.color !== '000000' && DRAWS_ITS_OWN_COLOURS.has(request.symbology))
      return {
        kind: 'option-refused',
        option: 'color',
        reason: `${request.symbology} is drawn in colours of its own: color would change nothing`,
      };
    if (request.ecLevel !== undefined) {
      const levels = EC_LEVELS_OF.get(request.symbology);
      if (!levels?.includes(request.ecLevel))
        return {
          kind: 'option-refused',
          option: 'eclevel',
          reason: levels
            ? `${request.symbology} takes error-correction level ${levels.join(', ')}, not ${request.ecLevel}`
            : `${request.symbology} has no error-correction level L, M, Q or H (only QR codes have): eclevel would change nothing`,
        };
    }
    const text = bwipText(request.symbology, request.content);
    if (text.kind === 'beyond') {
      const reason = `${request.symbology} carries ISO 8859-1 (Latin-1) text at most, and no ECI to mark UTF-8; "${text.character}" (${codePoint(text.character)}) is beyond it`;
      return { kind: 'content-refused', reason };
    }
    const options = {
      bcid: request.symbology,
      text: text.text,
      binarytext: text.binarytext,
      ...(text.parsefnc ? { parsefnc: true } : {}),
      scale: request.scale,
      rotate: request.rotate,
      includetext: request.includeText,
      sizelimit: this.options.maxPixels,
      ...(request.heightMm === undefined ? {} : { height: request.heightMm }),
      ...(request.ecLevel === undefined ? {} : { eclevel: request.ecLevel }),
      ...colours(request),
      ...ground(request),
    };
    const drawn = await this.engine.draw({ format: request.format, options });
    switch (drawn.kind) {
      case 'svg':
        return { kind: 'rendered', image: { format: 'svg', markup: drawn.markup } };
      case 'png':
        return { kind: 'rendered', image: { format: 'png', bytes: drawn.bytes } };
      // bwip-js answers `false` when the symbol has nothing to draw (flattermarken of "0").
      case 'empty':
        return { kind: 'content-refused', reason: 'the symbol would be empty' };
      // Everything bwip-js throws while encoding comes from what it was asked to encode: its
      // encoder's refusals, and a few defects on inputs it was not built for (a TypeError from
      // databarexpanded given non-GS1 text). Either way the content is at fault, never the server.
      case 'thrown':
        return refusal(request, drawn.message, this.options.maxPixels);
      case 'busy':
        return { kind: 'busy', reason: drawn.reason };
    }
  }
}

/**
 * The bars' and the text's colours, and the text's size, as asked. Black, bwip-js's own default, is
 * left unsaid, so an image asked without colours is drawn as it always was (bwip-js writes a fill
 * into SVG markup only for a colour it is given).
 */
function colours({ color, includeText, textColor, textSize }: BarcodeRequest): Record<string, unknown> {
  return {
    // The border some symbols are drawn with (ITF-14's bearer bars) is part of the symbol: in its colour.
    ...(color === '000000' ? {} : { barcolor: color, bordercolor: color }),
    ...(includeText && textColor !== '000000' ? { textcolor: textColor } : {}),
    ...(textSize === undefined ? {} : { textsize: textSize }),
  };
}

/** The ground and the quiet zone, as asked, in PNG and SVG alike; bwip-js scales and rotates them with the symbol. */
function ground({ symbology, background, quietZone }: BarcodeRequest): Record<string, unknown> {
  const zone = quietZoneOf(symbology);
  return {
    ...(background === 'transparent' ? {} : { backgroundcolor: background }),
    ...(quietZone
      ? { paddingtop: zone.top, paddingright: zone.right, paddingbottom: zone.bottom, paddingleft: zone.left }
      : {}),
  };
}

function refusal(request: BarcodeRequest, message: string, maxPixels: number): RenderOutcome {
  if (OVER_SIZE_LIMIT.test(message)) return overPixelLimit(request, maxPixels);
  const refused = ENCODER_REFUSAL.exec(message);
  if (refused) return { kind: 'content-refused', reason: `${refused[2]!.trim()} (${refused[1]})` };
  return { kind: 'content-refused', reason: 'the encoder could not encode it' };
}
