// The entry of a barcode drawing worker thread. It is plain JavaScript that imports npm packages
// only: a worker does not inherit tsx's loader hooks (Node 20), so under the test run it could not
// load a TypeScript module, and the build copies this file to dist/ as it is. Everything that
// decides what to draw stays in the TypeScript renderer on the main thread; this file only runs
// the encoder, the part that takes up to 0.4 s, and answers what it drew or what it threw. The
// pool (piscina) calls the default export once per task; what it throws fails that task only.

/** bwip-js is 2 MB of code: loaded once, on the first task, in this thread only. */
let bwipLoading;
const bwip = () => (bwipLoading ??= import('bwip-js'));

export default async function run(task) {
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
