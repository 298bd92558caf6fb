import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { sharedGeoNamesGazetteer } from './adapters/geonames/geonames-gazetteer.js';
import { locationRoutes } from './location-routes.js';
import { LibraryPlusCodes } from './adapters/open-location-code/library-plus-codes.js';
import { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from './domain/location-queries.js';
import { Gazetteer, PlusCodes } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
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

/** Places by name and by position (GeoNames), and plus codes. */
export const locationModule = (settings: LocationSettings): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    bindGazetteer(options);
    constant(PlusCodes, new LibraryPlusCodes());
    provide(LocationUseCases, [Gazetteer, PlusCodes], (gazetteer, plusCodes) => ({
      findPlaces: new FindPlaces(gazetteer),
      findNearbyPlaces: new FindNearbyPlaces(gazetteer, settings.nearbyKm),
      lookUpPlusCode: new LookUpPlusCode(plusCodes, gazetteer),
    })).inSingletonScope();
    provide(RouteContribution, [LocationUseCases], (useCases) => ({
      section: { name: 'Location', description: 'Places by name or by point (GeoNames), and plus codes.' },
      routes: locationRoutes(useCases),
    }));
  });
