/**
 * What other families may use of users and tokens: the stores, and the rules by which a caller
 * may see a token (its own, or anyone's with a permission) or act on a user. Usage history finds
 * whose a token is through this entry and nothing else.
 */
export { TokenStore } from './tokens/ports.js';
export { ownsToken } from './tokens/issue-token.js';
export { UserStore } from './users/ports.js';
export { targetUser, type UserRef } from './users/target-user.js';
export { UsersAndTokensPermission } from './permissions.js';
export { tokenEvent } from './events.js';
