import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import type { Background, ImageFormat, RenderedBarcode, Rotation, Symbology } from './barcode.js';
import type { BarcodeRenderer } from './ports.js';

export const SCALE = { min: 1, max: 10, default: 2 } as const;
/** Millimetres of bar height: below 1 nothing scans, above 100 is a poster. */
export const HEIGHT_MM = { min: 1, max: 100 } as const;

export interface GenerateBarcodeInput {
  readonly symbology: string;
  readonly content: string;
  readonly format?: ImageFormat | undefined;
  readonly scale?: number | undefined;
  readonly heightMm?: number | undefined;
  readonly includeText?: boolean | undefined;
  readonly rotate?: Rotation | undefined;
  readonly background?: Background | undefined;
  readonly quietZone?: boolean | undefined;
}

/** A UTF-16 surrogate without its partner: text no encoder can turn into bytes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const utf8 = new TextEncoder();

/** Draws a barcode of the given symbology, with the options bounded so no request is unbounded work. */
export class GenerateBarcode {
  constructor(
    private readonly renderer: BarcodeRenderer,
    private readonly maxContentBytes: number,
  ) {}

  async execute(input: GenerateBarcodeInput): Promise<E.Either<DomainError, RenderedBarcode>> {
    const refused = this.check(input);
    if (refused) return E.left(refused);
    const outcome = await this.renderer.render({
      symbology: input.symbology,
      content: input.content,
      format: input.format ?? 'png',
      scale: input.scale ?? SCALE.default,
      heightMm: input.heightMm,
      includeText: input.includeText ?? false,
      rotate: input.rotate ?? 'N',
      // A PNG that scans wherever it is placed, as print guides ask, unless the caller opts out.
      background: input.background ?? 'white',
      quietZone: input.quietZone ?? true,
    });
    switch (outcome.kind) {
      case 'rendered':
        return E.right(outcome.image);
      case 'unknown-symbology':
        return E.left({
          _tag: 'InformationNotFound',
          details: `Unknown barcode symbology ${input.symbology} (ids are case-sensitive; the list of codecs names them all)`,
        });
      case 'content-refused':
        return E.left(invalidInput('content', `${input.symbology} cannot encode this content: ${outcome.reason}`));
      case 'option-refused':
        return E.left(invalidInput(outcome.option, outcome.reason));
      case 'too-large':
        return E.left(invalidInput(['scale', 'height'], outcome.reason));
      case 'busy':
        return E.left({ _tag: 'ServiceBusy', details: `Too many barcodes are being drawn: ${outcome.reason}` });
    }
  }

  private check({
    content,
    scale,
    heightMm,
    format,
    background,
    quietZone,
  }: GenerateBarcodeInput): DomainError | undefined {
    if (content.length === 0) return invalidInput('content', 'content must not be empty');
    if (utf8.encode(content).length > this.maxContentBytes)
      return invalidInput('content', `content must be at most ${this.maxContentBytes} bytes of UTF-8`);
    if (LONE_SURROGATE.test(content)) return invalidInput('content', 'content must be well-formed Unicode text');
    if (scale !== undefined && !(Number.isInteger(scale) && scale >= SCALE.min && scale <= SCALE.max)) {
      return invalidInput('scale', `scale must be an integer from ${SCALE.min} to ${SCALE.max}`);
    }
    if (
      heightMm !== undefined &&
      !(Number.isFinite(heightMm) && heightMm >= HEIGHT_MM.min && heightMm <= HEIGHT_MM.max)
    ) {
      return invalidInput('height', `height must be a number of millimetres from ${HEIGHT_MM.min} to ${HEIGHT_MM.max}`);
    }
    // An SVG is the bare symbol, dark modules only: a ground or a margin asked of it would be dropped.
    if (format === 'svg' && background === 'white')
      return invalidInput(
        'background',
        'background=white is the ground of a PNG; an SVG has none (it is transparent): leave it out or ask for a PNG',
      );
    if (format === 'svg' && quietZone === true)
      return invalidInput(
        'quietzone',
        'quietzone=true is the margin of a PNG; an SVG is the bare symbol: leave it out or ask for a PNG',
      );
    return undefined;
  }
}

/** The symbologies the renderer draws, by id. */
export class ListSymbologies {
  constructor(private readonly renderer: BarcodeRenderer) {}

  async execute(): Promise<E.Either<DomainError, readonly Symbology[]>> {
    return E.right(await this.renderer.symbologies());
  }
}
