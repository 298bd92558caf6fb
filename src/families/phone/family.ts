import { defineFamily } from '../../composition/family.js';
import { phoneModule, PhoneUseCases } from './phone-module.js';

/** Phone numbers read by libphonenumber. */
export const phone = defineFamily({
  name: 'phone',
  module: () => phoneModule(),
  useCases: PhoneUseCases,
});
