/**
 * What other families and library users may use of users and tokens: its use cases, what they
 * take and answer, its ports and its permissions, and the rules by which a caller may see a token
 * (its own, or anyone's with a permission) or act on a user. Usage history finds whose a token is
 * through this entry and nothing else, and binds the two stores by their identifiers, hence
 * `TokenStore` and `UserStore` as values too.
 */
export type { Authenticate } from './auth/authenticate.js';
export type { LogInWithPassword, PasswordLogin } from './auth/log-in-with-password.js';
export type { LoginThrottle } from './auth/ports.js';
export type { CreateUser, CreateUserInput } from './users/create-user.js';
export type { DeleteUser, GetUser, UpdateUser, UserUpdate } from './users/manage-users.js';
export type { ListUsers, UserListing, UserPage } from './users/list-users.js';
export { targetUser, type UserRef } from './users/target-user.js';
export { viewOfUser, type UserView } from './users/user-view.js';
export { UserStore } from './users/ports.js';
export type { Passwords } from './users/ports.js';
export { ownsToken } from './tokens/issue-token.js';
export type { IssuedToken, IssueToken, IssueTokenInput } from './tokens/issue-token.js';
export type { RevokeToken, TokenReader, TokenView } from './tokens/manage-tokens.js';
export type { RotatedToken, RotateToken } from './tokens/rotate-token.js';
export { TokenStore } from './tokens/ports.js';
export type { TokenUsage } from './tokens/ports.js';
export { UsersAndTokensPermission } from './permissions.js';
export { tokenEvent } from './events.js';
