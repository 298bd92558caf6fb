/** What other families and library users may use of game statistics: its use cases, what they answer, its port and its permissions. */
export type { GetMaps, GetPlayerStats } from './game-queries.js';
export type { MapEntry, PlayerStats } from './game.js';
export type { GameData } from './ports.js';
export { GamePermission } from './permissions.js';
