import type { EventType, NewDomainEvent } from '../../../domain/events.js';
import type { TokenRecord } from '../../../domain/identity/token.js';
import type { User } from '../../../domain/identity/user.js';
import { tokenViewOf, type TokenView, type UserName } from './tokens/manage-tokens.js';
import { viewOfUser } from './users/user-view.js';

/** An event about a token, its data the token as `token/info` shows it (never its secret). */
export const tokenEvent = (
  type: Extract<EventType, `token.${string}`>,
  at: number,
  record: TokenRecord,
  owner: UserName,
  issuer: UserName | null,
): NewDomainEvent => ({ type, at, concerns: record.userId, data: { ...tokenViewOf(record, owner, issuer) } });

/** An event about a token already described (`TokenReader.described`). */
export const describedTokenEvent = (
  type: Extract<EventType, `token.${string}`>,
  at: number,
  userId: string,
  view: TokenView,
): NewDomainEvent => ({ type, at, concerns: userId, data: { ...view } });

/** An event about a user, its data the user as `user/get` shows them (never the password or its hash). */
export const userEvent = (type: Extract<EventType, `user.${string}`>, at: number, user: User): NewDomainEvent => ({
  type,
  at,
  concerns: user.id,
  data: { ...viewOfUser(user) },
});
