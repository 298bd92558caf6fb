import { defineFamily } from '../../wiring/family.js';
import { gameSamples } from './game-samples.js';
import { GamePermission } from './domain/permissions.js';
import { gameModule, GameUseCases } from './game-module.js';
import { gameSettings } from './game-settings.js';

/** The Hive's maps and player statistics. */
export const game = defineFamily({
  name: 'game',
  settings: gameSettings,
  permissions: GamePermission,
  module: (settings) => gameModule(settings),
  useCases: GameUseCases,
  samples: gameSamples,
});
