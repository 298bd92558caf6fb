// The entry of a barcode drawing (and reading) worker thread. It is plain JavaScript that imports npm packages
// only: a worker does not inherit tsx's loader hooks (Node 20), so under the test run it could not
// load a TypeScript module, and the build copies this file to dist/ as it is. Everything that
// decides what to draw stays in the TypeScript renderer on the main thread; this file only runs
// the encoder, the part that takes up to 0.4 s, and answers what it drew or what it threw. The
// pool (piscina) calls the default export once per task; what it throws fails that task only.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** bwip-js is 2 MB of code: loaded once, on the first task, in this thread only. */
let bwipLoading;
const bwip = () => (bwipLoading ??= import('bwip-js'));

/**
 * zxing-wasm's reader (ZXing-C++ compiled to WebAssembly, 1 MB), loaded on the first reading, in
 * this thread only. Its module would fetch the .wasm from a CDN; it is given the file shipped in
 * the package instead, so nothing is downloaded, ever.
 */
let readerLoading;
const reader = () =>
  (readerLoading ??= (async () => {
    const zxing = await import('zxing-wasm/reader');
    const wasm = await readFile(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
    await zxing.prepareZXingModule({
      overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
      fireImmediately: true,
    });
    return zxing;
  })());

/** Codes in one image at most: a sheet of labels has a few dozen. */
const MAX_CODES = 64;

/**
 * Every code in a PNG or JPEG file, read by ZXing-C++ trying hard (rotated, inverted, downscaled):
 * its format name, text and corners. ZXing answers a file it cannot load as a picture with one
 * invalid result saying so: that is `unreadable`; codes it found but could not decode are left out.
 */
async function decode(image) {
  const zxing = await reader();
  const results = await zxing.readBarcodes(image, {
    formats: [],
    tryHarder: true,
    tryRotate: true,
    tryInvert: true,
    tryDownscale: true,
    maxNumberOfSymbols: MAX_CODES,
  });
  const failed = results.find((result) => !result.isValid && result.format === '' && result.error !== '');
  if (failed && results.length === 1) return { kind: 'unreadable', reason: failed.error };
  return {
    kind: 'decoded',
    codes: results.filter((result) => result.isValid).map(({ format, text, position }) => ({ format, text, position })),
  };
}

export default async function run(task) {
  if (task.kind === 'decode') return decode(task.image);
  const library = await bwip();
  if (task.kind === 'symbols') {
    return {
      kind: 'symbols',
      symbols: library.symbolList.map(({ bcid, desc, text, opts }) => ({ bcid, desc, text, opts })),
    };
  }
  let drawn;
  try {
    drawn =
      task.format === 'svg'
        ? library.render(task.options, library.drawingSVG())
        : library.render(task.options, library.drawingZlibPng());
  } catch (error) {
    // The encoder's refusals (and its defects on odd content): the renderer tells them apart.
    return { kind: 'thrown', message: error instanceof Error ? error.message : String(error) };
  }
  if (drawn === false) return { kind: 'empty' };
  if (task.format === 'svg') return { kind: 'svg', markup: drawn };
  // Compressing can fail only for reasons of the process (memory): it fails the task.
  return { kind: 'png', bytes: await drawn };
}
