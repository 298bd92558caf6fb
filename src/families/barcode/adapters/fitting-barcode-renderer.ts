import type { BarcodeRequest, PixelBox, RenderedBarcode, Symbology } from '../domain/barcode.js';
import type { BarcodeRenderer, RenderOutcome } from '../domain/ports.js';

/** The width and height an image is drawn at. */
interface Size {
  readonly width: number;
  readonly height: number;
}

const VIEW_BOX = /^<svg viewBox="0 0 ([\d.]+) ([\d.]+)"/;

/** A PNG's size, from its header chunk (IHDR, always first: width then height, big-endian, after 16 bytes). */
function pngSize(bytes: Uint8Array): Size {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function svgSize(markup: string): Size {
  const viewBox = VIEW_BOX.exec(markup);
  if (!viewBox) throw new TypeError('a drawn SVG starts without its viewBox');
  return { width: Number(viewBox[1]), height: Number(viewBox[2]) };
}

const sizeOf = (image: RenderedBarcode): Size =>
  image.format === 'png' ? pngSize(image.bytes) : svgSize(image.markup);

const fits = (size: Size, box: PixelBox): boolean =>
  size.width <= (box.width ?? Infinity) && size.height <= (box.height ?? Infinity);

const describe = (box: PixelBox): string =>
  [box.width === undefined ? '' : `width ${box.width}`, box.height === undefined ? '' : `heightpx ${box.height}`]
    .filter(Boolean)
    .join(' and ');

/**
 * Images fitted into a box of pixels (`width`, `heightpx`) rather than drawn at a module size: the
 * symbol is measured once at one pixel a module, then drawn at the largest whole module size that
 * fits. Whole, because a module split between pixels prints blurred and may not scan; so a PNG
 * fits within the box, as large as it can be, and is never stretched. An SVG, which scales
 * without loss, is given the box as its width and height (one side following from the other, the
 * symbol's proportions kept). Any other request passes through.
 */
export class FittingBarcodeRenderer implements BarcodeRenderer {
  constructor(private readonly renderer: BarcodeRenderer) {}

  symbologies(): Promise<readonly Symbology[]> {
    return this.renderer.symbologies();
  }

  async render(request: BarcodeRequest): Promise<RenderOutcome> {
    const box = request.fit;
    if (box === undefined) return this.renderer.render(request);
    // Measured as an SVG: the same geometry as the PNG, without filling any pixels.
    const measured = await this.renderer.render({ ...request, format: 'svg', scale: 1, fit: undefined });
    if (measured.kind !== 'rendered') return measured;
    const unit = sizeOf(measured.image);
    const scale = Math.max(
      1,
      Math.floor(Math.min((box.width ?? Infinity) / unit.width, (box.height ?? Infinity) / unit.height)),
    );
    if (request.format === 'svg') {
      const drawn = scale === 1 ? measured : await this.renderer.render({ ...request, scale, fit: undefined });
      if (drawn.kind !== 'rendered' || drawn.image.format !== 'svg') return drawn;
      const markup = drawn.image.markup;
      return { kind: 'rendered', image: { format: 'svg', markup: sized(markup, svgSize(markup), box) } };
    }
    if (!fits(unit, box))
      return {
        kind: 'too-large',
        reason: `the image is ${unit.width} × ${unit.height} pixels at its smallest (one pixel a module), more than ${describe(box)}; give more room`,
      };
    // Drawing sizes grow with the module size all but a pixel or so (text is drawn from a font):
    // one size smaller is tried when the first is over the box.
    for (let tried = scale; ; tried--) {
      const drawn = await this.renderer.render({ ...request, scale: tried, fit: undefined });
      if (drawn.kind !== 'rendered' || fits(sizeOf(drawn.image), box) || tried === 1) return drawn;
    }
  }
}

/** The markup with the box's width and height, the symbol's proportions kept. */
function sized(markup: string, drawn: Size, box: PixelBox): string {
  const factor = Math.min((box.width ?? Infinity) / drawn.width, (box.height ?? Infinity) / drawn.height);
  const width = Math.max(1, Math.round(drawn.width * factor));
  const height = Math.max(1, Math.round(drawn.height * factor));
  return markup.replace(/^<svg /, `<svg width="${width}" height="${height}" `);
}
