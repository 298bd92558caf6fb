/** The permissions of the users-and-tokens family: what its routes and use cases ask of who calls them. */
export const UsersAndTokensPermission = {
  UsersCreate: 'Users::Create',
  UsersRead: 'Users::Read',
  UsersUpdate: 'Users::Update',
  UsersDelete: 'Users::Delete',
  UsersPermissions: 'Users::Permissions',
  UsersBlock: 'Users::Block',
  TokensCreate: 'Tokens::Create',
  TokensRead: 'Tokens::Read',
  TokensDelete: 'Tokens::Delete',
  TokensUpdate: 'Tokens::Update',
} as const;
