import { expect } from 'chai';
import { serverForSuite } from '../support/http-server.js';
import type { Place } from '../../src/families/location/domain/places.js';

/**
 * What a person typing a place means first, over HTTP with the real GeoNames data (issue 30's
 * proof): each row is what is typed and the place that must come first, by its name, first-level
 * region and country. Bare names mean the place most people mean (a capital, a region's seat, the
 * largest); a qualifier, a former or foreign name, or a typed start keeps to what it says.
 */
const EXPECTED_FIRST: readonly (readonly [typed: string, name: string, admin1: string, country: string])[] = [
  ['Paris', 'Paris', 'Île-de-France', 'FR'],
  ['Paris, TX', 'Paris', 'Texas', 'US'],
  ['London', 'London', 'England', 'GB'],
  ['London, Ontario', 'London', 'Ontario', 'CA'],
  ['Springfield', 'Springfield', 'Illinois', 'US'],
  ['Springfield, MO', 'Springfield', 'Missouri', 'US'],
  ['Cambridge', 'Cambridge', 'England', 'GB'],
  ['Cambridge, MA', 'Cambridge', 'Massachusetts', 'US'],
  ['Portland', 'Portland', 'Oregon', 'US'],
  ['Portland Maine', 'Portland', 'Maine', 'US'],
  ['Washington', 'Washington, D.C.', 'District of Columbia', 'US'],
  ['Washington DC', 'Washington, D.C.', 'District of Columbia', 'US'],
  ['Berlin', 'Berlin', 'State of Berlin', 'DE'],
  ['Berlin, NH', 'Berlin', 'New Hampshire', 'US'],
  ['Moscow', 'Moscow', 'Moscow', 'RU'],
  ['Moscow, Idaho', 'Moscow', 'Idaho', 'US'],
  ['Sydney', 'Sydney', 'New South Wales', 'AU'],
  ['Sydney, Nova Scotia', 'Sydney', 'Nova Scotia', 'CA'],
  ['Birmingham', 'Birmingham', 'England', 'GB'],
  ['Birmingham, AL', 'Birmingham', 'Alabama', 'US'],
  ['Manchester, NH', 'Manchester', 'New Hampshire', 'US'],
  ['Dublin', 'Dublin', 'Leinster', 'IE'],
  ['Dublin, Ohio', 'Dublin', 'Ohio', 'US'],
  ['Athens', 'Athens', 'Attica', 'GR'],
  ['Athens, Georgia', 'Athens', 'Georgia', 'US'],
  ['Roma', 'Rome', 'Lazio', 'IT'],
  ['München', 'Munich', 'Bavaria', 'DE'],
  ['Wien', 'Vienna', 'Vienna', 'AT'],
  ['København', 'Copenhagen', 'Capital Region', 'DK'],
  ['Bombay', 'Mumbai', 'Maharashtra', 'IN'],
  ['Peking', 'Beijing', 'Beijing', 'CN'],
  ['Saigon', 'Ho Chi Minh City', 'Ho Chi Minh City (HCMC)', 'VN'],
  ['Geneva', 'Genève', 'Geneva', 'CH'],
  ['Saint Petersburg', 'Saint Petersburg', 'St.-Petersburg', 'RU'],
  ['St. Petersburg, FL', 'St. Petersburg', 'Florida', 'US'],
  ['Sao Paulo', 'São Paulo', 'São Paulo', 'BR'],
  ['Rio', 'Rio de Janeiro', 'Rio de Janeiro', 'BR'],
  ['Mexico City', 'Mexico City', 'Mexico City', 'MX'],
  ['Kyoto', 'Kyoto', 'Kyoto', 'JP'],
  ['Montreal', 'Montréal', 'Quebec', 'CA'],
  ['Zurich', 'Zürich', 'Zurich', 'CH'],
  ['Naples', 'Naples', 'Campania', 'IT'],
  ['Naples, FL', 'Naples', 'Florida', 'US'],
  ['Aurora', 'Aurora', 'Colorado', 'US'],
  ['Salem', 'Salem', 'Oregon', 'US'],
  ['Alexandria', 'Alexandria', 'Alexandria', 'EG'],
  ['Alexandria, VA', 'Alexandria', 'Virginia', 'US'],
  ['Kansas City', 'Kansas City', 'Missouri', 'US'],
  ['Cape Town', 'Cape Town', 'Western Cape', 'ZA'],
  ['Bogotá', 'Bogotá', 'Bogota D.C.', 'CO'],
  // Towns of 500 to 999 people, from GeoNames' cities500.txt.
  ['Hallstatt', 'Hallstatt', 'Upper Austria', 'AT'],
  ['Giverny', 'Giverny', 'Normandy', 'FR'],
  ['Vernazza', 'Vernazza', 'Liguria', 'IT'],
];

/** Type-ahead: the start typed so far and the place that must be offered first. */
const EXPECTED_FIRST_TYPED: readonly (readonly [typed: string, name: string, admin1: string, country: string])[] = [
  ['Spring', 'Springfield', 'Illinois', 'US'],
  ['Pa', 'Paris', 'Île-de-France', 'FR'],
  ['Lon', 'London', 'England', 'GB'],
  ['Tok', 'Tokyo', 'Tokyo', 'JP'],
  ['Mün', 'Munich', 'Bavaria', 'DE'],
  ['saint e', 'Saint-Étienne', 'Auvergne-Rhône-Alpes', 'FR'],
];

describe('http: places people expect first (real GeoNames data)', () => {
  const suite = serverForSuite();
  let token: string;

  before(async () => {
    token = await suite.server.tokenFor(['Location::Coords']);
  });

  const firstOf = async (query: string): Promise<string> => {
    const response = await suite.server.get(`/api/location/coords?${query}&limit=1`, {
      Authorization: `Bearer ${token}`,
    });
    expect(response.status, query).to.equal(200);
    const [first] = ((await response.json()) as { places: Place[] }).places;
    return `${first!.name} (${first!.admin1}, ${first!.country})`;
  };

  it(`answers each of ${EXPECTED_FIRST.length} names with the place a person means first`, async () => {
    const answered: string[] = [];
    const expected: string[] = [];
    for (const [typed, name, admin1, country] of EXPECTED_FIRST) {
      answered.push(`${typed} → ${await firstOf(`address=${encodeURIComponent(typed)}`)}`);
      expected.push(`${typed} → ${name} (${admin1}, ${country})`);
    }
    expect(answered).to.deep.equal(expected);
  });

  it(`offers first, as each of ${EXPECTED_FIRST_TYPED.length} starts is typed, the place a person means`, async () => {
    const answered: string[] = [];
    const expected: string[] = [];
    for (const [typed, name, admin1, country] of EXPECTED_FIRST_TYPED) {
      answered.push(`${typed} → ${await firstOf(`mode=prefix&address=${encodeURIComponent(typed)}`)}`);
      expected.push(`${typed} → ${name} (${admin1}, ${country})`);
    }
    expect(answered).to.deep.equal(expected);
  });
});
