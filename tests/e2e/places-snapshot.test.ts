import { join } from 'node:path';
import { expect } from 'chai';
import { loadGeoNames } from '../../src/families/location/adapters/geonames/geonames-data.js';
import { readGeoNamesSnapshot, sourcesOf } from '../../src/families/location/adapters/geonames/geonames-snapshot.js';
import { GEONAMES_FILES } from '../../src/families/location/adapters/geonames/place-table.js';
import { differencesBetween } from '../support/geonames-differences.js';

const BUILT_FOLDER = join(import.meta.dirname, '..', '..', 'dist', 'families', 'location', 'adapters', 'geonames');
const BUILT_SNAPSHOT = join(BUILT_FOLDER, 'geonames.snapshot');
/** The files as the built program finds them: our corrections are the copy in dist/ (the compiler writes its JSON anew). */
const BUILT_FILES = { ...GEONAMES_FILES, admin1Corrections: () => join(BUILT_FOLDER, 'admin1-corrections.json') };

describe('the places snapshot that npm run build writes into dist/', function () {
  // Reading the packages and building their indexes: about a second and a half of a core.
  this.timeout(30_000);

  it('was made of the installed packages, and holds what reading them with the code in src/ gives', async () => {
    const built = await readGeoNamesSnapshot(await sourcesOf(BUILT_FILES), GEONAMES_FILES.cities500(), BUILT_SNAPSHOT);
    expect(built, `${BUILT_SNAPSHOT} is there and was made of the installed packages`).to.not.equal(undefined);
    expect(differencesBetween(built!, await loadGeoNames())).to.deep.equal([]);
  });
});
