import { defineFamily } from '../../wiring/family.js';
import { locationSamples } from './location-samples.js';
import { LocationPermission } from './domain/permissions.js';
import { locationModule, LocationUseCases } from './location-module.js';
import { locationSettings } from './location-settings.js';

/** Places of the GeoNames gazetteer and plus codes. */
export const location = defineFamily({
  name: 'location',
  settings: locationSettings,
  permissions: LocationPermission,
  module: (settings) => locationModule(settings),
  useCases: LocationUseCases,
  samples: locationSamples,
});
