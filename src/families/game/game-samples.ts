import type { RouteSampleTable } from '../../platform/http/route-samples.js';

export const gameSamples: RouteSampleTable = {
  'GET /game/network/maps/:map': { params: { map: ['hide', 'dr', 'wars', 'HIDE'] } },
  'GET /game/network/maps': {},
  'GET /game/network/player': { query: { player: ['Steve123', 'nobody', 'a b', ' lead'] } },
};
