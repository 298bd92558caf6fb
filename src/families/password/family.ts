import { defineFamily } from '../../wiring/family.js';
import { passwordSamples } from './password-samples.js';
import { PasswordPermission } from './domain/permissions.js';
import { passwordModule, PasswordUseCases } from './password-module.js';

/** Random passwords and passphrases. */
export const password = defineFamily({
  name: 'password',
  permissions: PasswordPermission,
  module: () => passwordModule(),
  useCases: PasswordUseCases,
  samples: passwordSamples,
});
