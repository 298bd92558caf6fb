import { defineFamily } from '../../wiring/family.js';
import { phoneSamples } from './phone-samples.js';
import { PhonePermission } from './domain/permissions.js';
import { phoneModule, PhoneUseCases } from './phone-module.js';

/** Phone numbers read by libphonenumber. */
export const phone = defineFamily({
  name: 'phone',
  permissions: PhonePermission,
  module: () => phoneModule(),
  useCases: PhoneUseCases,
  samples: phoneSamples,
});
