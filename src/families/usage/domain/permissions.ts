/**
 * The permissions of usage history: none of its own. A token's usage is read as the token is
 * (its owner, or `Tokens::Read`), a user's as the user is (themself, or `Users::Read`).
 */
export const UsagePermission = {} as const;
