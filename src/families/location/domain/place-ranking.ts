/**
 * How a place serves as a seat of government, best first: the capital, a seat of government
 * elsewhere (GeoNames' PPLG: The Hague), the seat of a first-level region (state, province:
 * PPLA), then every other place. Seats of smaller units (US county seats, often villages
 * elsewhere) are not ranked: Aurora, Nebraska (4,500 people, a county seat) would come before
 * Aurora, Colorado (360,000). A gazetteer that does not know seats calls every place `other`.
 */
export const SeatRank = { capital: 0, governmentSeat: 1, regionSeat: 2, other: 3 } as const;
export type SeatRank = (typeof SeatRank)[keyof typeof SeatRank];

/** What the ranking reads of a place, however a gazetteer holds it (an object, a row of a table). */
export interface RankReader<P> {
  seatOf(place: P): number;
  populationOf(place: P): number;
  /** The place's first-level region, as anything that compares with `===`; undefined when the data names none. */
  regionOf(place: P): string | number | undefined;
}

/** How much more populous than any place of a name a seat known by it otherwise must be to come first. */
export const OTHER_NAME_LEAD = 5;

/**
 * A seat ranks as one only if it has at least this share of the people of the most populous
 * place of its name: Hamilton, Bermuda's capital of 902, does not come before Hamilton, Ontario
 * (519,000), while Springfield, Illinois (116,000) still comes before Missouri's (166,000).
 */
export const SEAT_MIN_SHARE = 1 / 100;

/** Most populous first: the order of places found by the start of their name. */
export const mostPopulousFirst =
  <P>({ populationOf }: Pick<RankReader<P>, 'populationOf'>) =>
  (a: P, b: P): number =>
    populationOf(b) - populationOf(a);

/**
 * The places a name search answers for a whole name, best first. Among places of that name: the
 * capital first, then seats of government, then seats of first-level regions, then the most
 * populous; a seat with less than {@link SEAT_MIN_SHARE} of the people of the name's most
 * populous place counts as any other place. Places known by it as another name are noisier (former names: Richmond was
 * "Manchester", Hong Kong "Victoria"): they come after, most populous first, unless one outranks
 * every place of the name as a seat and is {@link OTHER_NAME_LEAD} times as populous as any
 * (Rome for "Roma", Washington, D.C. for "Washington"), which then comes first. A place known by
 * the name in a region where a place of that very name lies is left out unless it comes first
 * that way: it is the name's former or neighbouring use (Newton, Massachusetts was "Cambridge"
 * Village), and whoever names the region means the place called so (`Cambridge, MA`). A place in
 * both lists counts once, as a place of the name.
 */
export function rankNamed<P>(
  named: readonly P[],
  knownAs: readonly P[],
  { seatOf, populationOf, regionOf }: RankReader<P>,
): P[] {
  const seatFloor = SEAT_MIN_SHARE * Math.max(0, ...named.map(populationOf));
  const rankOf = (place: P) => (populationOf(place) >= seatFloor ? seatOf(place) : SeatRank.other);
  const own = [...named].sort((a, b) => rankOf(a) - rankOf(b) || populationOf(b) - populationOf(a));
  const ownRegions = new Set(own.map(regionOf));
  ownRegions.delete(undefined);
  const others = knownAs.filter((place) => !named.includes(place)).sort(mostPopulousFirst({ populationOf }));
  const bestOwnSeat = Math.min(...own.map(rankOf));
  const mostPopulousOwn = Math.max(0, ...own.map(populationOf));
  const outranks = (place: P) =>
    seatOf(place) < bestOwnSeat && populationOf(place) >= OTHER_NAME_LEAD * mostPopulousOwn;
  const apart = (place: P) => !ownRegions.has(regionOf(place));
  return [...new Set([...others.filter(outranks), ...own, ...others.filter(apart)])];
}

/**
 * How much a seat counts when places are offered as a name is typed: a place's population times
 * its weight, so a state capital of 116,000 (Springfield, Illinois) comes before a city of 186,000
 * (Springs, Gauteng) for `Spring`, and a capital before any city less than four times as big.
 */
const TYPE_AHEAD_WEIGHT: Readonly<Record<SeatRank, number>> = {
  [SeatRank.capital]: 4,
  [SeatRank.governmentSeat]: 3,
  [SeatRank.regionSeat]: 2,
  [SeatRank.other]: 1,
};
/** The largest weight: no place scores more than its population times this. */
export const MAX_TYPE_AHEAD_WEIGHT = 4;

export const typeAheadScore = (seat: number, population: number): number =>
  population * (TYPE_AHEAD_WEIGHT[seat as SeatRank] ?? 1);
