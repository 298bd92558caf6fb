/** The permissions of the phone family: what its routes and use cases ask of who calls them. */
export const PhonePermission = {
  PhoneDetails: 'Phone::Details',
} as const;
