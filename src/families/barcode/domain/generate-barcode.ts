import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, type DomainError } from '../../../domain/errors.js';
import {
  BLACK,
  WHITE,
  type BackgroundWord,
  type EcLevel,
  type ImageFormat,
  type RenderedBarcode,
  type Rgb,
  type Rotation,
  type Symbology,
} from './barcode.js';
import type { BarcodeRenderer } from './ports.js';

export const SCALE = { min: 1, max: 10, default: 2 } as const;
/** Millimetres of bar height: below 1 nothing scans, above 100 is a poster. */
export const HEIGHT_MM = { min: 1, max: 100 } as const;
/** A side of the box an image is fitted into, in pixels. */
export const PIXELS = { min: 16, max: 8192 } as const;
/** The human-readable text's size, in drawing points (one point is a linear module at scale 1). */
export const TEXT_SIZE = { min: 4, max: 36 } as const;

export interface GenerateBarcodeInput {
  readonly symbology: string;
  readonly content: string;
  readonly format?: ImageFormat | undefined;
  readonly scale?: number | undefined;
  /** The image's width in pixels, fitted at the largest module size; not with `scale`. */
  readonly widthPx?: number | undefined;
  /** The image's height in pixels, fitted the same way; `heightMm` still shapes a linear symbol's bars. */
  readonly heightPx?: number | undefined;
  readonly heightMm?: number | undefined;
  readonly includeText?: boolean | undefined;
  readonly textSize?: number | undefined;
  readonly rotate?: Rotation | undefined;
  readonly color?: Rgb | undefined;
  readonly textColor?: Rgb | undefined;
  readonly background?: BackgroundWord | Rgb | undefined;
  readonly quietZone?: boolean | undefined;
  readonly ecLevel?: EcLevel | undefined;
}

const inRange = (value: number | undefined, { min, max }: { readonly min: number; readonly max: number }) =>
  value === undefined || (Number.isInteger(value) && value >= min && value <= max);

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
    const format = input.format ?? 'png';
    const color = input.color ?? BLACK;
    const fitted = input.widthPx !== undefined || input.heightPx !== undefined;
    const outcome = await this.renderer.render({
      symbology: input.symbology,
      content: input.content,
      format,
      scale: input.scale ?? SCALE.default,
      fit: fitted ? { width: input.widthPx, height: input.heightPx } : undefined,
      heightMm: input.heightMm,
      includeText: input.includeText ?? false,
      textSize: input.textSize,
      rotate: input.rotate ?? 'N',
      color,
      // Text in the bars' colour unless asked otherwise: a blue barcode with black digits is rarely meant.
      textColor: input.textColor ?? color,
      // A PNG that scans wherever it is placed, as print guides ask; an SVG the bare symbol, as it
      // always was, to place on a ground of the caller's own. Either may be asked the other way.
      background: groundOf(input.background ?? defaultGround(format)),
      quietZone: input.quietZone ?? format === 'png',
      ecLevel: input.ecLevel,
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
        return E.left(
          invalidInput(
            input.widthPx !== undefined || input.heightPx !== undefined ? ['width', 'heightpx'] : ['scale', 'height'],
            outcome.reason,
          ),
        );
      case 'busy':
        return E.left({ _tag: 'ServiceBusy', details: `Too many barcodes are being drawn: ${outcome.reason}` });
    }
  }

  private check(input: GenerateBarcodeInput): DomainError | undefined {
    const { content, scale, heightMm } = input;
    if (content.length === 0) return invalidInput('content', 'content must not be empty');
    if (utf8.encode(content).length > this.maxContentBytes)
      return invalidInput('content', `content must be at most ${this.maxContentBytes} bytes of UTF-8`);
    if (LONE_SURROGATE.test(content)) return invalidInput('content', 'content must be well-formed Unicode text');
    if (!inRange(scale, SCALE))
      return invalidInput('scale', `scale must be an integer from ${SCALE.min} to ${SCALE.max}`);
    if (
      heightMm !== undefined &&
      !(Number.isFinite(heightMm) && heightMm >= HEIGHT_MM.min && heightMm <= HEIGHT_MM.max)
    ) {
      return invalidInput('height', `height must be a number of millimetres from ${HEIGHT_MM.min} to ${HEIGHT_MM.max}`);
    }
    const pixels = `an integer number of pixels from ${PIXELS.min} to ${PIXELS.max}`;
    if (!inRange(input.widthPx, PIXELS)) return invalidInput('width', `width must be ${pixels}`);
    if (!inRange(input.heightPx, PIXELS)) return invalidInput('heightpx', `heightpx must be ${pixels}`);
    if (!inRange(input.textSize, TEXT_SIZE))
      return invalidInput('textsize', `textsize must be an integer from ${TEXT_SIZE.min} to ${TEXT_SIZE.max}`);
    return this.checkTogether(input);
  }

  /** Options that each make sense alone but not with another: refused rather than one of them dropped. */
  private checkTogether(input: GenerateBarcodeInput): DomainError | undefined {
    if (input.scale !== undefined && (input.widthPx !== undefined || input.heightPx !== undefined))
      return invalidInput(
        'scale',
        'scale sets the module size and width or heightpx choose it to fit: give one or the other',
      );
    if (input.includeText !== true) {
      for (const [option, given] of [
        ['textsize', input.textSize],
        ['textcolor', input.textColor],
      ] as const)
        if (given !== undefined)
          return invalidInput(option, `${option} is about the text under the bars: it needs includetext=true`);
    }
    const ground = groundOf(input.background ?? defaultGround(input.format ?? 'png'));
    const color = input.color ?? BLACK;
    if (ground === color)
      return invalidInput('color', `color and background are both ${color}: the bars would not be seen`);
    if (input.includeText === true && ground === (input.textColor ?? color))
      return invalidInput('textcolor', `the text and the background are both ${ground}: it would not be seen`);
    return undefined;
  }
}

const defaultGround = (format: ImageFormat): BackgroundWord => (format === 'png' ? 'white' : 'transparent');

/** The word `white` is the colour FFFFFF. */
const groundOf = (background: BackgroundWord | Rgb): Rgb | 'transparent' =>
  background === 'white' ? WHITE : background;

/** The symbologies the renderer draws, by id. */
export class ListSymbologies {
  constructor(private readonly renderer: BarcodeRenderer) {}

  async execute(): Promise<E.Either<DomainError, readonly Symbology[]>> {
    return E.right(await this.renderer.symbologies());
  }
}
