import { expect } from 'chai';
import { MemoryGazetteer } from '../../src/families/location/adapters/geonames/memory-gazetteer.js';
import { MemoryPlusCodes } from '../../src/families/location/adapters/open-location-code/memory-plus-codes.js';
import { countryCodeOf } from '../../src/families/location/domain/countries.js';
import { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from '../../src/families/location/domain/location-queries.js';
import { OTHER_NAME_LEAD, rankNamed, SeatRank } from '../../src/families/location/domain/place-ranking.js';
import { placeNameKey } from '../../src/families/location/domain/places.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import {
  EIFFEL_CELL,
  PARIS_FR,
  PARIS_TX,
  RANKED_ENTRIES,
  ROMA_TX,
  ROME,
  SEEDED_CELLS,
  SEEDED_PLACES,
  SPRINGFIELD_IL,
  SPRINGFIELD_MA,
  SPRINGFIELD_MO,
} from '../support/location-fixtures.js';

const gazetteer = new MemoryGazetteer(SEEDED_PLACES);
const plusCodes = new MemoryPlusCodes(SEEDED_CELLS);

describe('domain: place names', () => {
  it('compare without accents, case, hyphens, apostrophes or extra spaces', () => {
    expect(placeNameKey('Saint-Étienne')).to.equal('saint etienne');
    expect(placeNameKey('  SAINT   étienne ')).to.equal('saint etienne');
    expect(placeNameKey("L'Haÿ-les-Roses")).to.equal('l hay les roses');
    expect(placeNameKey('St. Gallen')).to.equal('st gallen');
    expect(placeNameKey('Łódź')).to.equal('lodz');
    expect(placeNameKey('Großenhain')).to.equal('grossenhain');
    expect(placeNameKey('København')).to.equal('kobenhavn');
    expect(placeNameKey('東京')).to.equal('東京');
  });

  it('know countries by ISO code or English name', () => {
    expect(countryCodeOf('fr')).to.equal('FR');
    expect(countryCodeOf('France')).to.equal('FR');
    expect(countryCodeOf('united states')).to.equal('US');
    expect(countryCodeOf('USA')).to.equal('US');
    expect(countryCodeOf("Côte d'Ivoire")).to.equal('CI');
    expect(countryCodeOf('Japan')).to.equal('JP');
    expect(countryCodeOf('Myanmar')).to.equal('MM');
    expect(countryCodeOf('UK')).to.equal('GB');
    for (const unknown of ['Atlantis', 'EU', 'ZZ', 'xx', ''])
      expect(countryCodeOf(unknown), unknown).to.equal(undefined);
  });
});

describe('domain: finding places', () => {
  const findPlaces = new FindPlaces(gazetteer);

  it('reads "name, country" and keeps to that country', async () => {
    expect(expectRight(await findPlaces.execute('Paris'))).to.deep.equal([PARIS_FR, PARIS_TX]);
    expect(expectRight(await findPlaces.execute('paris, united states'))).to.deep.equal([PARIS_TX]);
    expect(expectRight(await findPlaces.execute('Paris,fr'))).to.deep.equal([PARIS_FR]);
    expect(expectRight(await findPlaces.execute('Paris, '))).to.deep.equal([PARIS_FR, PARIS_TX]);
    expect(expectRight(await findPlaces.execute('Paris', 1))).to.deep.equal([PARIS_FR]);
  });

  it('answers not found, with a hint, for a qualifier that is no country or region; refuses an empty name, control characters and a bad limit', async () => {
    const unknown = expectLeftTag(await findPlaces.execute('Paris, Atlantis'), 'InformationNotFound');
    expect((unknown as { details: string }).details)
      .to.include('"Atlantis" is neither a country nor a region')
      .and.to.include('"Paris, TX"');
    // A region by name (the memory gazetteer knows regions from its places' admin1).
    expect(expectRight(await findPlaces.execute('Paris, Texas'))).to.deep.equal([PARIS_TX]);
    expect(expectRight(await findPlaces.execute('Paris Texas'))).to.deep.equal([PARIS_TX]);
    expectLeftTag(await findPlaces.execute(' - , FR'), 'InvalidInput');
    expectLeftTag(await findPlaces.execute('Par\u0000is'), 'InvalidInput');
    expectLeftTag(await findPlaces.execute('Paris', 0), 'InvalidInput');
    expectLeftTag(await findPlaces.execute('Paris', 51), 'InvalidInput');
  });

  it('says 22 when nothing is called that', async () => {
    expectLeftTag(await findPlaces.execute('Tokyo, FR'), 'InformationNotFound');
    expectLeftTag(await findPlaces.execute('Nowhere'), 'InformationNotFound');
  });
});

describe('domain: ranking places of one name', () => {
  interface Town {
    readonly name: string;
    readonly seat: SeatRank;
    readonly population: number;
    readonly region?: string;
  }
  const town = (name: string, population: number, seat: SeatRank = SeatRank.other, region?: string): Town => ({
    name,
    seat,
    population,
    ...(region === undefined ? {} : { region }),
  });
  const reader = {
    seatOf: (t: Town) => t.seat,
    populationOf: (t: Town) => t.population,
    regionOf: (t: Town) => t.region,
  };
  const names = (towns: readonly Town[]) => towns.map((t) => t.name);

  it('puts the capital first, then a seat of government, then a first-level seat, then the most populous', () => {
    const village = town('village', 900);
    const city = town('city', 900_000);
    const regionSeat = town('region seat', 50_000, SeatRank.regionSeat);
    const governmentSeat = town('government seat', 40_000, SeatRank.governmentSeat);
    const capital = town('capital', 30_000, SeatRank.capital);
    expect(names(rankNamed([village, city, regionSeat, governmentSeat, capital], [], reader))).to.deep.equal([
      'capital',
      'government seat',
      'region seat',
      'city',
      'village',
    ]);
    const smallSeat = town('small region seat', 10_000, SeatRank.regionSeat);
    expect(names(rankNamed([smallSeat, regionSeat], [], reader))).to.deep.equal(['region seat', 'small region seat']);
  });

  it('puts places known by the name otherwise after those of the name, unless a seat among them dwarfs them all', () => {
    const own = [town('roma', 10_000), town('roma bis', 7_000)];
    const capital = town('rome', OTHER_NAME_LEAD * 10_000, SeatRank.capital);
    const bigCity = town('former name', 5_000_000);
    expect(names(rankNamed(own, [bigCity, capital], reader))).to.deep.equal([
      'rome',
      'roma',
      'roma bis',
      'former name',
    ]);
    // Just short of the lead, or outranking no place of the name as a seat: after them, most populous first.
    const almost = town('rome', OTHER_NAME_LEAD * 10_000 - 1, SeatRank.capital);
    expect(names(rankNamed(own, [almost, bigCity], reader))).to.deep.equal(['roma', 'roma bis', 'former name', 'rome']);
    const seatedOwn = [town('roma', 10_000, SeatRank.capital)];
    expect(names(rankNamed(seatedOwn, [capital], reader))).to.deep.equal(['roma', 'rome']);
  });

  it('counts a place of the name that is also known by it once, as a place of the name', () => {
    const both = town('both', 1_000);
    const other = town('other', 2_000);
    expect(names(rankNamed([both], [other, both], reader))).to.deep.equal(['both', 'other']);
    expect(rankNamed([], [], reader)).to.deep.equal([]);
  });

  it('ranks a seat dwarfed a hundredfold by a place of its name as any other place', () => {
    const city = town('city', 519_000);
    const tinyCapital = town('tiny capital', 902, SeatRank.capital);
    expect(names(rankNamed([tinyCapital, city], [], reader))).to.deep.equal(['city', 'tiny capital']);
    const smallCapital = town('small capital', 5_190, SeatRank.capital);
    expect(names(rankNamed([city, smallCapital], [], reader))).to.deep.equal(['small capital', 'city']);
  });

  it('leaves out a place known by the name in a region where a place of that very name lies, unless it dwarfs them', () => {
    const cambridge = town('cambridge', 110_000, SeatRank.other, 'massachusetts');
    const formerly = town('newton', 88_000, SeatRank.other, 'massachusetts');
    const elsewhere = town('elsewhere', 5_000, SeatRank.other, 'ontario');
    const nowhere = town('nowhere', 4_000);
    expect(names(rankNamed([cambridge], [formerly, elsewhere, nowhere], reader))).to.deep.equal([
      'cambridge',
      'elsewhere',
      'nowhere',
    ]);
    const capital = town('capital', OTHER_NAME_LEAD * 110_000, SeatRank.capital, 'massachusetts');
    expect(names(rankNamed([cambridge], [capital], reader))).to.deep.equal(['capital', 'cambridge']);
  });

  it('is how places are found by name, whatever the gazetteer', async () => {
    const findPlaces = new FindPlaces(new MemoryGazetteer([...SEEDED_PLACES, ...RANKED_ENTRIES]));
    expect(expectRight(await findPlaces.execute('Springfield'))).to.deep.equal([
      SPRINGFIELD_IL,
      SPRINGFIELD_MO,
      SPRINGFIELD_MA,
    ]);
    expect(expectRight(await findPlaces.execute('Springfield, Missouri'))).to.deep.equal([SPRINGFIELD_MO]);
    expect(expectRight(await findPlaces.execute('Roma'))).to.deep.equal([ROME, ROMA_TX]);
    expect(expectRight(await findPlaces.execute('Rom'))).to.deep.equal([ROME, ROMA_TX]);
    expect(expectRight(await findPlaces.execute('Roma, US'))).to.deep.equal([ROMA_TX]);
  });
});

describe('domain: nearby places', () => {
  const findNearby = new FindNearbyPlaces(gazetteer);

  it('gives the nearest places with distances rounded to metres', async () => {
    const answer = expectRight(await findNearby.execute(48.8566, 2.3522, 2));
    expect(answer.lat).to.equal(48.8566);
    expect(answer.places.map((place) => place.name)).to.deep.equal(['Paris', 'Vénéjan']);
    expect(answer.places[0]!.distanceKm).to.equal(0.433);
  });

  it('refuses impossible points and limits, and says 22 for an empty gazetteer', async () => {
    expect(expectLeftTag(await findNearby.execute(91, 0), 'InvalidInput')).to.deep.include({ fields: ['lat'] });
    expect(expectLeftTag(await findNearby.execute(0, Number.NaN), 'InvalidInput')).to.deep.include({ fields: ['lon'] });
    expectLeftTag(await findNearby.execute(0, 0, 0), 'InvalidInput');
    expectLeftTag(await new FindNearbyPlaces(new MemoryGazetteer()).execute(0, 0), 'InformationNotFound');
  });
});

describe('domain: plus codes', () => {
  const lookUp = new LookUpPlusCode(plusCodes, gazetteer);

  it('encodes lat/lon, 10 digits unless asked otherwise', async () => {
    expect(expectRight(await lookUp.execute({ lat: 48.85829, lon: 2.2944 }))).to.deep.equal({
      code: '8FW4V75V+8Q',
      lat: 48.85829,
      lon: 2.2944,
      length: 10,
    });
    expect(expectRight(await lookUp.execute({ lat: 48.85829, lon: 2.2944, length: 11 }))).to.deep.include({
      code: '8FW4V75V+8Q6',
      length: 11,
    });
  });

  it('decodes a full code into its centre and bounds, and refuses a reference given with it rather than ignore it', async () => {
    expect(await lookUp.execute({ code: '8fw4v75v+8q', lat: 0, lon: 0 })).to.deep.include({
      left: {
        _tag: 'InvalidInput',
        fields: ['lat', 'lon'],
        reason: 'a full plus code needs no reference: leave lat, lon out, or give a short code',
      },
    });
    expect(await lookUp.execute({ code: '8fw4v75v+8q', near: 'Paris' })).to.deep.include({
      left: {
        _tag: 'InvalidInput',
        fields: ['near'],
        reason: 'a full plus code needs no reference: leave near out, or give a short code',
      },
    });
    const decoded = expectRight(await lookUp.execute({ code: '8fw4v75v+8q' }));
    expect(decoded).to.deep.equal({
      code: '8FW4V75V+8Q',
      lat: 48.8583125,
      lon: 2.2944375,
      length: 10,
      bounds: { south: EIFFEL_CELL.south, west: EIFFEL_CELL.west, north: EIFFEL_CELL.north, east: EIFFEL_CELL.east },
    });
  });

  it('recovers a short code near lat/lon or near a named place', async () => {
    expect(expectRight(await lookUp.execute({ code: 'V75V+8Q', lat: 46.9, lon: 2.3 }))).to.deep.include({
      code: '8FR4V75V+8Q',
      shortCode: 'V75V+8Q',
      reference: { lat: 46.9, lon: 2.3 },
    });
    const nearParis = expectRight(await lookUp.execute({ code: 'v75v+8q', near: 'Paris, FR' }));
    expect(nearParis).to.deep.include({
      code: '8FW4V75V+8Q',
      shortCode: 'V75V+8Q',
      reference: { lat: PARIS_FR.lat, lon: PARIS_FR.lon, place: PARIS_FR },
    });
  });

  it('says what is missing or wrong', async () => {
    expect(expectLeftTag(await lookUp.execute({}), 'MissingInput')).to.deep.include({ fields: ['lat', 'lon'] });
    expect(expectLeftTag(await lookUp.execute({ lat: 1 }), 'MissingInput')).to.deep.include({ fields: ['lon'] });
    expect(expectLeftTag(await lookUp.execute({ code: 'V75V+8Q' }), 'InvalidInput')).to.deep.include({
      fields: ['code'],
    });
    expect(expectLeftTag(await lookUp.execute({ code: 'NOPE' }), 'InvalidInput')).to.deep.include({ fields: ['code'] });
    expect(expectLeftTag(await lookUp.execute({ code: EIFFEL_CELL.code, length: 11 }), 'InvalidInput')).to.deep.include(
      { fields: ['length'] },
    );
    expect(expectLeftTag(await lookUp.execute({ near: 'Paris' }), 'InvalidInput')).to.deep.include({
      fields: ['near'],
    });
    expect(
      expectLeftTag(await lookUp.execute({ code: 'V75V+8Q', near: 'Paris', lat: 1, lon: 2 }), 'InvalidInput'),
    ).to.deep.include({ fields: ['near', 'lat', 'lon'] });
    expect(expectLeftTag(await lookUp.execute({ lat: 95, lon: 0 }), 'InvalidInput')).to.deep.include({
      fields: ['lat'],
    });
    expectLeftTag(await lookUp.execute({ code: 'V75V+8Q', near: 'Atlantis City' }), 'InformationNotFound');
  });
});
