/** The permissions of the location family: what its routes and use cases ask of who calls them. */
export const LocationPermission = {
  LocationCoords: 'Location::Coords',
  LocationAddress: 'Location::Address',
  LocationPlusCode: 'Location::PlusCode',
} as const;
