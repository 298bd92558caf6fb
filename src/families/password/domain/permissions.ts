/** The permissions of the password family: what its routes and use cases ask of who calls them. */
export const PasswordPermission = {
  PasswordGenerate: 'Password::Generate',
} as const;
