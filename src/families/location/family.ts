import { defineFamily } from '../../wiring/family.js';
import { locationSamples } from './location-samples.js';
import { LocationPermission } from './domain/permissions.js';
import { locationModule, LocationUseCases } from './location-module.js';

/** Places of the GeoNames gazetteer and plus codes. */
export const location = defineFamily({
  name: 'location',
  permissions: LocationPermission,
  module: () => locationModule(),
  useCases: LocationUseCases,
  samples: locationSamples,
});
