import { defineFamily } from '../../wiring/family.js';
import { whoisSamples } from './whois-samples.js';
import { WhoisPermission } from './domain/permissions.js';
import { whoisModule, WhoisUseCases } from './whois-module.js';
import { whoisSettings } from './whois-settings.js';

/** DNS records and registration data (RDAP, port-43 WHOIS) of domain names. */
export const whois = defineFamily({
  name: 'whois',
  settings: whoisSettings,
  permissions: WhoisPermission,
  module: (settings) => whoisModule(settings),
  useCases: WhoisUseCases,
  samples: whoisSamples,
});
