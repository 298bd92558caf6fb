/** The permissions of the game family: what its routes and use cases ask of who calls them. */
export const GamePermission = {
  GameNetworkMap: 'Game::Network.Map',
  GameNetworkPlayer: 'Game::Network.Player',
} as const;
