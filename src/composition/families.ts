import type { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config.js';
import { barcodeModule } from './barcode-module.js';
import { cryptoModule } from './crypto-module.js';
import { dictionaryModule } from './dictionary-module.js';
import { gameModule } from './game-module.js';
import { locationModule } from './location-module.js';
import { phoneModule } from './phone-module.js';
import { usersAndTokensModule } from './users-and-tokens-module.js';
import { whoisModule } from './whois-module.js';

/**
 * Every family, each given its own settings. A new family is its module plus one line here; the
 * order is that of the route table and of the start of background work (stopped in reverse).
 */
export const familyModules = (config: AppConfig): ContainerModule[] => [
  cryptoModule({ ...config.encryption, dataDir: config.dataDir }),
  usersAndTokensModule(config.auth),
  gameModule(config.hive),
  phoneModule(),
  locationModule(),
  dictionaryModule(),
  barcodeModule(config.barcode),
  whoisModule(config.whois),
];
