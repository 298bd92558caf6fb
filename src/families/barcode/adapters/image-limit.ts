import type { BarcodeRequest } from '../domain/barcode.js';
import type { RenderOutcome } from '../domain/ports.js';

/** A PNG over the renderer's pixel budget, with the options the caller can lower. */
export function overPixelLimit(request: BarcodeRequest, maxPixels: number): RenderOutcome {
  const at = `scale ${request.scale}${request.heightMm === undefined ? '' : ` and height ${request.heightMm}`}`;
  return {
    kind: 'too-large',
    reason: `the image would be larger than allowed (${maxPixels} pixels) at ${at}; lower them`,
  };
}
