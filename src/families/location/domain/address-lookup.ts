import * as E from 'fp-ts/lib/Either.js';
import type { CallContext } from '../../../domain/call-context.js';
import { upstreamFailure, type DomainError } from '../../../domain/errors.js';
import { countryNameOf } from './countries.js';
import type { AddressPlace, GeocodedAddress } from './places.js';
import type { Gazetteer, Geocoder } from './ports.js';

/** The operator's geocoder and what it needs of the gazetteer's settings. */
export interface Geocoding {
  readonly geocoder: Geocoder;
  /** The nearest gazetteer place lends an address its time zone only when it is this near. */
  readonly nearbyKm: number;
}

/**
 * Asks the geocoder for a text the gazetteer knows nothing of. Its addresses answer; when it finds
 * nothing either, the gazetteer's own refusal stands, saying that the geocoder was asked too; when
 * it cannot be asked, that is the answer, as for every upstream.
 */
export async function lookUpAddress(
  { geocoder, nearbyKm }: Geocoding,
  gazetteer: Gazetteer,
  text: string,
  limit: number,
  unknownToGazetteer: Extract<DomainError, { _tag: 'InformationNotFound' }>,
  lang: string | undefined,
  context: CallContext,
): Promise<E.Either<DomainError, readonly AddressPlace[]>> {
  const result = await geocoder.geocode(text, limit, context);
  if (result.kind === 'unavailable') return E.left(upstreamFailure(`The geocoder (${geocoder.name})`, result.reason));
  if (result.addresses.length === 0)
    return E.left({
      ...unknownToGazetteer,
      details: `${unknownToGazetteer.details ?? `No place named "${text}" is known`}; the geocoder (${geocoder.name}) found nothing either`,
    });
  return E.right(
    await Promise.all(
      result.addresses.slice(0, limit).map((address) => withTimeZone(gazetteer, nearbyKm, address, lang)),
    ),
  );
}

/**
 * An address as the API shows places: the country's name from its code, and the time zone of the
 * nearest gazetteer place when that is within `nearbyKm` (a geocoder gives none; a town's zone is
 * its streets'). A geocoder that names no country lends it from that place too.
 */
async function withTimeZone(
  gazetteer: Gazetteer,
  nearbyKm: number,
  found: GeocodedAddress,
  lang: string | undefined,
): Promise<AddressPlace> {
  const [nearest] = await gazetteer.nearest(found.lat, found.lon, 1);
  const near = nearest !== undefined && nearest.distanceKm <= nearbyKm ? nearest : undefined;
  const country = found.country ?? near?.country ?? '';
  return {
    name: found.name,
    country,
    countryName: countryNameOf(country),
    admin1: found.admin1,
    admin2: found.admin2,
    lat: found.lat,
    lon: found.lon,
    population: null,
    timeZone: near?.timeZone ?? null,
    // The geocoder is asked in English; only that language's name is known.
    ...(lang !== undefined && { localizedName: lang === 'en' ? found.name : null }),
    address: found.address,
  };
}
