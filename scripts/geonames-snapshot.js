// The places' snapshot (src/families/location/adapters/geonames/geonames-snapshot.ts), written
// beside the built module that reads it, from the installed data packages by the built loader.
// Run by scripts/build.js after the compiler, so that the snapshot and the code reading it are
// always of the same build.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function writePlacesSnapshot(root) {
  const folder = join(root, 'dist', 'families', 'location', 'adapters', 'geonames');
  const { loadGeoNames } = await import(pathToFileURL(join(folder, 'geonames-data.js')).href);
  const { sourcesOf, writeGeoNamesSnapshot } = await import(pathToFileURL(join(folder, 'geonames-snapshot.js')).href);
  await writeGeoNamesSnapshot(await loadGeoNames(), await sourcesOf());
}
