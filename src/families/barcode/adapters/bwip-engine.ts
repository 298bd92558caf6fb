import { loadOnce } from '../../../platform/caching/load-once.js';

/** A symbology as bwip-js lists it. */
export interface BwipSymbol {
  readonly bcid: string;
  readonly desc: string;
  readonly text: string;
  readonly opts: string;
}

/** What bwip-js is asked to draw: its options, as `bwip.render` takes them, and the image format. */
export interface BwipTask {
  readonly format: 'png' | 'svg';
  readonly options: Readonly<Record<string, unknown>>;
}

/**
 * What running bwip-js gave: an image, nothing to draw (`false`), or the message of what it threw
 * (its encoder's refusals); `busy` when the engine has no room to take the drawing now.
 */
export type BwipDrawn =
  | { readonly kind: 'svg'; readonly markup: string }
  | { readonly kind: 'png'; readonly bytes: Uint8Array }
  | { readonly kind: 'empty' }
  | { readonly kind: 'thrown'; readonly message: string }
  | { readonly kind: 'busy'; readonly reason: string };

/** Where bwip-js runs: on the calling thread, or in worker threads (draw-worker.js mirrors this). */
export interface BwipEngine {
  symbols(): Promise<readonly BwipSymbol[]>;
  draw(task: BwipTask): Promise<BwipDrawn>;
}

/** bwip-js on the calling thread, imported on first use (2 MB of code). */
export class InProcessBwipEngine implements BwipEngine {
  private readonly bwip = loadOnce(() => import('bwip-js'));

  async symbols(): Promise<readonly BwipSymbol[]> {
    return (await this.bwip()).symbolList;
  }

  async draw({ format, options }: BwipTask): Promise<BwipDrawn> {
    const bwip = await this.bwip();
    let drawn: unknown;
    try {
      // The options are built by the renderer from bwip-js's own option names.
      const bwipOptions = options as unknown as Parameters<typeof bwip.render>[0];
      drawn =
        format === 'svg'
          ? bwip.render(bwipOptions, bwip.drawingSVG())
          : bwip.render(bwipOptions, bwip.drawingZlibPng());
    } catch (error) {
      return { kind: 'thrown', message: error instanceof Error ? error.message : String(error) };
    }
    if (drawn === false) return { kind: 'empty' };
    if (format === 'svg') {
      if (typeof drawn !== 'string') throw new TypeError(`bwip-js drew ${typeof drawn} for an SVG`);
      return { kind: 'svg', markup: drawn };
    }
    // Compressing the pixels can fail only for reasons of the process (memory): a real error.
    return { kind: 'png', bytes: await (drawn as Promise<Buffer>) };
  }
}
