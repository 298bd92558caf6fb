import type { BarcodeRequest, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';
import { LruCache } from '../../../platform/caching/lru-cache.js';

/** What an entry costs beyond its image: the key, the objects, the map slot (an estimate). */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * Remembers what a renderer drew, keyed by every input of the drawing, so the same barcode asked
 * for again costs a map lookup instead of milliseconds of encoding. Bounded by bytes (images and
 * keys), least recently used first out; an image over a quarter of the budget is not kept, so one
 * huge symbol cannot flush everything else. Refusals are kept too: they can cost as much to reach.
 */
export class CachedBarcodeRenderer implements BarcodeRenderer {
  private readonly entries: LruCache<string, RenderOutcome>;

  constructor(
    private readonly renderer: BarcodeRenderer,
    private readonly maxBytes: number,
  ) {
    this.entries = new LruCache(maxBytes);
  }

  symbologies(): Promise<readonly Symbology[]> {
    return this.renderer.symbologies();
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    if (this.maxBytes === 0) return this.renderer.render(request);
    const key = keyOf(request);
    const cached = this.entries.get(key);
    if (cached) return cached;
    const outcome = await this.renderer.render(request);
    // No room to draw it now says nothing about the drawing: the next ask may find room.
    if (outcome.kind === 'busy') return outcome;
    const bytes = ENTRY_OVERHEAD_BYTES + key.length * 2 + sizeOf(outcome);
    if (bytes <= this.maxBytes / 4) this.entries.set(key, outcome, bytes);
    return outcome;
  }

  /** Bytes held now, for tests and diagnostics. */
  get size(): { readonly entries: number; readonly bytes: number } {
    const { entries, weight } = this.entries.size;
    return { entries, bytes: weight };
  }
}

/**
 * Every input, quoted, so no symbology or content can pass for another request's. One entry per
 * field of the request, so that a field added to it and not here fails to compile.
 */
const keyOf = (request: BarcodeRequest): string => {
  const inputs: Record<keyof BarcodeRequest, unknown> = {
    symbology: request.symbology,
    format: request.format,
    scale: request.scale,
    fit: request.fit === undefined ? null : [request.fit.width ?? null, request.fit.height ?? null],
    heightMm: request.heightMm ?? null,
    includeText: request.includeText,
    textSize: request.textSize ?? null,
    rotate: request.rotate,
    color: request.color,
    textColor: request.textColor,
    background: request.background,
    quietZone: request.quietZone,
    ecLevel: request.ecLevel ?? null,
    content: request.content,
  };
  return JSON.stringify(inputs);
};

function sizeOf(outcome: RenderOutcome): number {
  switch (outcome.kind) {
    case 'rendered':
      return outcome.image.format === 'png'
        ? outcome.image.bytes.byteLength
        : outcome.image.markup.length; /* ASCII: one byte a character */
    case 'content-refused':
    case 'option-refused':
    case 'too-large':
    case 'busy':
      return outcome.reason.length * 2;
    case 'unknown-symbology':
      return 0;
  }
}
