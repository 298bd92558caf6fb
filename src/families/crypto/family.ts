import { defineFamily } from '../../wiring/family.js';
import { cryptoSamples } from './crypto-samples.js';
import { CryptoPermission } from './domain/permissions.js';
import { cryptoModule, CryptoUseCases } from './crypto-module.js';
import { cryptoSettings } from './crypto-settings.js';

/** Encrypting and decrypting text with the installation's key ring. */
export const crypto = defineFamily({
  name: 'crypto',
  settings: cryptoSettings,
  permissions: CryptoPermission,
  module: (settings, { dataDir }) => cryptoModule({ ...settings, dataDir }),
  useCases: CryptoUseCases,
  samples: cryptoSamples,
});
