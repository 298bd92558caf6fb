import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadGeoNames, withIndexes } from '../../src/families/location/adapters/geonames/geonames-data.js';
import {
  loadGeoNamesPreferringSnapshot,
  readGeoNamesSnapshot,
  sourcesOf,
  writeGeoNamesSnapshot,
} from '../../src/families/location/adapters/geonames/geonames-snapshot.js';
import { GEONAMES_FILES } from '../../src/families/location/adapters/geonames/place-table.js';
import { loadOnce } from '../../src/platform/caching/load-once.js';
import { differencesBetween } from '../support/geonames-differences.js';

/** The data as the packages give it, read once for every test here. */
const parsed = loadOnce(() => loadGeoNames());

describe('GeoNames snapshot', function () {
  // Reading the packages and building their indexes: about a second and a half of a core each time.
  this.timeout(30_000);
  let folder: string;
  let whole: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'geonames-snapshot-'));
    whole = join(folder, 'whole.snapshot');
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('reads back every column, name and index of the data it was written of', async () => {
    const data = await parsed();
    const sources = await sourcesOf();
    await writeGeoNamesSnapshot(data, sources, whole);
    const read = await readGeoNamesSnapshot(sources, data.details.file, whole);
    expect(read).to.not.equal(undefined);
    expect(differencesBetween(read!, data)).to.deep.equal([]);
  });

  it('is read in place of the packages when it was made of them, and not once they changed', async () => {
    const data = await parsed();
    // A snapshot told apart from the packages by one place's population.
    const population = Uint32Array.from(data.table.population);
    population[0] = 1;
    const marked = withIndexes({ ...data.table, population }, data.details);
    const sources = await sourcesOf();
    const file = join(folder, 'marked.snapshot');

    await writeGeoNamesSnapshot(marked, sources, file);
    expect((await loadGeoNamesPreferringSnapshot(GEONAMES_FILES, file)).table.population[0]).to.equal(1);

    await writeGeoNamesSnapshot(marked, { ...sources, cities500: `1 bytes, ${sources.cities500}` }, file);
    const fromPackages = await loadGeoNamesPreferringSnapshot(GEONAMES_FILES, file);
    expect(fromPackages.table.population[0]).to.equal(data.table.population[0]).and.not.equal(1);
  });

  it('is not there: the packages are read', async () => {
    const data = await parsed();
    expect(await readGeoNamesSnapshot(await sourcesOf(), data.details.file, join(folder, 'none'))).to.equal(undefined);
  });

  it('refuses a snapshot that is not whole, saying what is wrong with it and what to run', async () => {
    const sources = await sourcesOf();
    const cities500 = GEONAMES_FILES.cities500();
    const bytes = readFileSync(whole);
    const broken = async (name: string, content: Buffer) => {
      const file = join(folder, name);
      writeFileSync(file, content);
      return readGeoNamesSnapshot(sources, cities500, file).then(
        () => 'read',
        (error: Error) => error.message,
      );
    };
    const headerLength = bytes.readUInt32LE(8);
    expect(await broken('other', Buffer.from('places, as text'))).to.equal(
      `${join(folder, 'other')} is not a whole snapshot of the places (it does not start as one): run npm run build`,
    );
    expect(await broken('header-cut', bytes.subarray(0, 12 + headerLength - 1))).to.match(
      /header-cut is not a whole snapshot of the places \(its header is cut short\): run npm run build$/,
    );
    const garbled = Buffer.from(bytes);
    garbled.write('}', 12);
    expect(await broken('garbled', garbled)).to.match(/\(its header is not JSON\)/);
    expect(await broken('columns-cut', bytes.subarray(0, bytes.length - 1024))).to.match(
      /\(positions lies outside it\)/,
    );
  });
});
