import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import type { Logger } from 'pino';
import type { CallContext } from '../../../../domain/call-context.js';
import type { GeocodedAddress } from '../../domain/places.js';
import type { Geocoder, GeocoderResult } from '../../domain/ports.js';
import { UpstreamClient } from '../../../../platform/upstream/upstream-client.js';
import type {
  UpstreamDependencies,
  UpstreamResult,
  UpstreamSettings,
} from '../../../../platform/upstream/upstream-call.js';

/** Photon and Nominatim both serve OpenStreetMap's data, whose licence asks this credit. */
export const OSM_ATTRIBUTION =
  'Address data © OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)';

/** How to reach the geocoder and how long an answer stays fresh (addresses seldom move). */
export type GeocoderOptions = Omit<UpstreamSettings, 'name'> & { readonly ttlMs: number };

/** The parts of an address both geocoders give, each under its own names. */
interface AddressParts {
  readonly name?: string;
  readonly houseNumber?: string;
  readonly street?: string;
  readonly postcode?: string;
  readonly locality?: string;
  readonly admin1?: string;
  readonly admin2?: string;
  readonly country?: string;
  readonly countryCode?: string;
}

/**
 * An address as the domain takes it. Its name is its own (a building's, a town's) or else what a
 * person would call it: the house number and street, or the postcode and town.
 */
function geocodedAddress(lat: number, lon: number, parts: AddressParts, label?: string): GeocodedAddress | undefined {
  const streetLine = parts.street && [parts.houseNumber, parts.street].filter(Boolean).join(' ');
  const townLine = [parts.postcode, parts.locality].filter(Boolean).join(' ');
  const name = parts.name || streetLine || townLine || parts.admin2 || parts.admin1;
  if (!name || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180)
    return undefined;
  const code = parts.countryCode?.toUpperCase();
  return {
    name,
    country: code !== undefined && /^[A-Z]{2}$/.test(code) ? code : null,
    admin1: parts.admin1 || null,
    admin2: parts.admin2 || null,
    lat,
    lon,
    address: {
      label:
        label ||
        [parts.name, streetLine, townLine, parts.admin1, parts.country]
          .filter((line, index, lines) => line && lines.indexOf(line) === index)
          .join(', '),
      houseNumber: parts.houseNumber || null,
      street: parts.street || null,
      postcode: parts.postcode || null,
      locality: parts.locality || null,
    },
  };
}

/** A Photon feature: GeoJSON, with OpenStreetMap's address parts as properties. */
const PhotonFeature = t.type({
  geometry: t.type({ coordinates: t.tuple([t.number, t.number]) }),
  properties: t.partial({
    name: t.string,
    housenumber: t.string,
    street: t.string,
    postcode: t.string,
    city: t.string,
    town: t.string,
    village: t.string,
    district: t.string,
    county: t.string,
    state: t.string,
    country: t.string,
    countrycode: t.string,
  }),
});

/** A Nominatim result (`format=jsonv2&addressdetails=1`): its coordinates are strings. */
const NominatimPlace = t.intersection([
  t.type({ lat: t.string, lon: t.string }),
  t.partial({
    name: t.string,
    display_name: t.string,
    address: t.partial({
      house_number: t.string,
      road: t.string,
      postcode: t.string,
      city: t.string,
      town: t.string,
      village: t.string,
      hamlet: t.string,
      county: t.string,
      state: t.string,
      country: t.string,
      country_code: t.string,
    }),
  }),
]);

const defined = <A>(value: A | undefined): value is A => value !== undefined;

/**
 * A geocoder reached over HTTP through the shared upstream client: each text and limit is one
 * path, kept for `ttlMs`, one call shared by identical concurrent asks, an expired answer served
 * (stale) when the geocoder fails. `Answer` is its JSON as decoded.
 */
abstract class HttpGeocoder<Answer> implements Geocoder {
  readonly attribution = OSM_ATTRIBUTION;
  private readonly upstream: UpstreamClient;

  constructor(
    readonly name: string,
    private readonly options: GeocoderOptions,
    logger: Logger,
    private readonly answer: t.Decoder<unknown, Answer>,
    dependencies: Omit<UpstreamDependencies, 'logger'>,
  ) {
    this.upstream = new UpstreamClient({ name: name.toLowerCase(), ...options }, { ...dependencies, logger });
  }

  protected abstract pathOf(text: string, limit: number): string;
  /** Its results as the domain takes them; one without a point or a name is left out. */
  protected abstract addressesOf(answer: Answer): (GeocodedAddress | undefined)[];

  async geocode(text: string, limit: number, context: CallContext = {}): Promise<GeocoderResult> {
    const result: UpstreamResult<Answer> = await this.upstream.get(this.pathOf(text, limit), {
      ttlMs: this.options.ttlMs,
      decoder: this.answer,
      requestId: context.requestId,
    });
    switch (result.kind) {
      case 'found':
        return {
          kind: 'found',
          addresses: this.addressesOf(result.value).filter(defined),
          stale: result.freshness === 'stale',
        };
      case 'timeout':
        return { kind: 'unavailable', reason: 'timeout' };
      // A 404 or a refusal of a text we checked says the URL or the server is wrong, not the address.
      case 'not-found':
      case 'rejected':
      case 'unavailable':
        return { kind: 'unavailable', reason: 'failure' };
    }
  }
}

/** The elements of `list` of that shape; an odd one is left out rather than failing the others. */
const valid = <A>(shape: t.Decoder<unknown, A>, list: readonly unknown[]): A[] =>
  list.flatMap((element) => {
    const decoded = shape.decode(element);
    return E.isRight(decoded) ? [decoded.right] : [];
  });

const PhotonAnswer = t.type({ features: t.array(t.unknown) });

/** Photon (photon.komoot.io, or an operator's own): `GET /api?q=…&limit=…&lang=en`, answered in GeoJSON. */
export class PhotonGeocoder extends HttpGeocoder<t.TypeOf<typeof PhotonAnswer>> {
  constructor(options: GeocoderOptions, logger: Logger, dependencies: Omit<UpstreamDependencies, 'logger'> = {}) {
    super('Photon', options, logger, PhotonAnswer, dependencies);
  }

  protected pathOf(text: string, limit: number): string {
    return `/api?q=${encodeURIComponent(text)}&limit=${limit}&lang=en`;
  }

  protected addressesOf({ features }: t.TypeOf<typeof PhotonAnswer>) {
    return valid(PhotonFeature, features).map(({ geometry, properties: found }) => {
      const [lon, lat] = geometry.coordinates;
      return geocodedAddress(lat, lon, {
        name: found.name,
        houseNumber: found.housenumber,
        street: found.street,
        postcode: found.postcode,
        locality: found.city ?? found.town ?? found.village,
        admin1: found.state,
        admin2: found.county,
        country: found.country,
        countryCode: found.countrycode,
      });
    });
  }
}

const NominatimAnswer = t.array(t.unknown);

/**
 * Nominatim (nominatim.openstreetmap.org, or an operator's own):
 * `GET /search?q=…&format=jsonv2&addressdetails=1&limit=…&accept-language=en`.
 */
export class NominatimGeocoder extends HttpGeocoder<t.TypeOf<typeof NominatimAnswer>> {
  constructor(options: GeocoderOptions, logger: Logger, dependencies: Omit<UpstreamDependencies, 'logger'> = {}) {
    super('Nominatim', options, logger, NominatimAnswer, dependencies);
  }

  protected pathOf(text: string, limit: number): string {
    return `/search?q=${encodeURIComponent(text)}&format=jsonv2&addressdetails=1&limit=${limit}&accept-language=en`;
  }

  protected addressesOf(places: t.TypeOf<typeof NominatimAnswer>) {
    return valid(NominatimPlace, places).map((found) => {
      const parts = found.address ?? {};
      return geocodedAddress(
        Number(found.lat),
        Number(found.lon),
        {
          name: found.name,
          houseNumber: parts.house_number,
          street: parts.road,
          postcode: parts.postcode,
          locality: parts.city ?? parts.town ?? parts.village ?? parts.hamlet,
          admin1: parts.state,
          admin2: parts.county,
          country: parts.country,
          countryCode: parts.country_code,
        },
        found.display_name,
      );
    });
  }
}
