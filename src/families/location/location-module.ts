import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { sharedGeoNamesGazetteer } from './adapters/geonames/geonames-gazetteer.js';
import { locationRoutes } from './location-routes.js';
import { LibraryPlusCodes } from './adapters/open-location-code/library-plus-codes.js';
import { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from './domain/location-queries.js';
import { Gazetteer, Geocoder, PlusCodes } from './domain/ports.js';
import { NominatimGeocoder, PhotonGeocoder } from './adapters/geocoders/osm-geocoders.js';
import { Clock } from '../../domain/ports.js';
import type { Logger } from 'pino';
import type { UpstreamCallCounter } from '../../platform/upstream/upstream-call.js';
import { upstreamTimingOf } from '../../platform/upstream/upstream-call.js';
import { Log, RouteContribution, UpstreamCalls, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';
import type { LocationSettings } from './location-settings.js';

/** What the family offers a library user. */
export interface LocationUseCases {
  readonly findPlaces: FindPlaces;
  readonly findNearbyPlaces: FindNearbyPlaces;
  readonly lookUpPlusCode: LookUpPlusCode;
}
export const LocationUseCases = useCasesIdentifier<LocationUseCases>('LocationUseCases');

/**
 * The gazetteer, once for every family that finds places (location, weather), whichever of them
 * are built: its data is loaded on first use, and only one copy of it should be.
 */
export function bindGazetteer({ bind, isBound }: Pick<ContainerModuleLoadOptions, 'bind' | 'isBound'>): void {
  if (!isBound(Gazetteer)) bind(Gazetteer).toConstantValue(sharedGeoNamesGazetteer());
}

/** The operator's geocoder, by the API its URL speaks. */
function geocoderOf(
  settings: LocationSettings,
  logger: Logger,
  dependencies: { clock: Clock; countCall: UpstreamCallCounter },
) {
  const options = {
    ...upstreamTimingOf(settings),
    baseUrl: settings.geocoderUrl,
    ttlMs: settings.geocoderTtlMs,
    maxEntries: settings.geocoderCacheEntries,
  };
  return settings.geocoderApi === 'nominatim'
    ? new NominatimGeocoder(options, logger, dependencies)
    : new PhotonGeocoder(options, logger, dependencies);
}

/** Places by name and by position (GeoNames), and plus codes; addresses from the operator's geocoder, if any. */
export const locationModule = (settings: LocationSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    bindGazetteer(options);
    constant(PlusCodes, new LibraryPlusCodes());
    const useCases = (gazetteer: Gazetteer, plusCodes: PlusCodes, geocoder?: Geocoder): LocationUseCases => ({
      findPlaces: new FindPlaces(gazetteer, geocoder && { geocoder, nearbyKm: settings.nearbyKm }),
      findNearbyPlaces: new FindNearbyPlaces(gazetteer, settings.nearbyKm),
      lookUpPlusCode: new LookUpPlusCode(plusCodes, gazetteer),
    });
    if (settings.geocoderUrl === 'off')
      provide(LocationUseCases, [Gazetteer, PlusCodes], (gazetteer, plusCodes) =>
        useCases(gazetteer, plusCodes),
      ).inSingletonScope();
    else {
      provide(Geocoder, [Log, Clock, UpstreamCalls], (logger, clock, countCall) =>
        geocoderOf(settings, logger, { clock, countCall }),
      ).inSingletonScope();
      provide(LocationUseCases, [Gazetteer, PlusCodes, Geocoder], useCases).inSingletonScope();
    }
    provide(RouteContribution, [LocationUseCases], (useCases) => ({
      section: { name: 'Location', description: 'Places by name or by point (GeoNames), and plus codes.' },
      routes: locationRoutes(useCases),
    }));
  });
