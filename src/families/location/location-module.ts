import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { GeoNamesGazetteer } from './adapters/geonames/geonames-gazetteer.js';
import { locationRoutes } from './location-routes.js';
import { LibraryPlusCodes } from './adapters/open-location-code/library-plus-codes.js';
import { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from './domain/location-queries.js';
import { Gazetteer, PlusCodes } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';

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
  if (!isBound(Gazetteer)) bind(Gazetteer).toConstantValue(new GeoNamesGazetteer());
}

/** Places by name and by position (GeoNames), and plus codes. */
export const locationModule = (): ContainerModule =>
  new ContainerModule((options) => {
    const { bind } = options;
    bindGazetteer(options);
    bind(PlusCodes).toConstantValue(new LibraryPlusCodes());
    bind(FindPlaces)
      .toResolvedValue((gazetteer: Gazetteer) => new FindPlaces(gazetteer), [Gazetteer])
      .inSingletonScope();
    bind(FindNearbyPlaces)
      .toResolvedValue((gazetteer: Gazetteer) => new FindNearbyPlaces(gazetteer), [Gazetteer])
      .inSingletonScope();
    bind(LookUpPlusCode)
      .toResolvedValue(
        (plusCodes: PlusCodes, gazetteer: Gazetteer) => new LookUpPlusCode(plusCodes, gazetteer),
        [PlusCodes, Gazetteer],
      )
      .inSingletonScope();
    bind(LocationUseCases).toResolvedValue(
      (
        findPlaces: FindPlaces,
        findNearbyPlaces: FindNearbyPlaces,
        lookUpPlusCode: LookUpPlusCode,
      ): LocationUseCases => ({ findPlaces, findNearbyPlaces, lookUpPlusCode }),
      [FindPlaces, FindNearbyPlaces, LookUpPlusCode],
    );
    bind(RouteContribution).toResolvedValue(
      (
        findPlaces: FindPlaces,
        findNearbyPlaces: FindNearbyPlaces,
        lookUpPlusCode: LookUpPlusCode,
      ): RouteContribution => ({
        routes: locationRoutes({ findPlaces, findNearbyPlaces, lookUpPlusCode }),
      }),
      [FindPlaces, FindNearbyPlaces, LookUpPlusCode],
    );
  });
