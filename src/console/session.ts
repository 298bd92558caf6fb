import { createClient, type Client, type paths } from '../client/index.js';
import type { Problem } from './problem.js';

type TokenInfo = paths['/api/token/info']['get']['responses'][200]['content']['application/json'];
type User = paths['/api/user/get']['get']['responses'][200]['content']['application/json'];

/** Who is signed in: the token the console calls with, what it holds, and its user. */
export interface Session {
  readonly api: Client;
  readonly token: TokenInfo;
  readonly user: User;
  /** Made by this console's password sign-in, so revoked at sign-out; a pasted token is only forgotten. */
  readonly ownToken: boolean;
}

/** The name of the tokens a password sign-in makes, to tell them apart in the token list. */
export const CONSOLE_TOKEN_NAME = 'console';
/** How long a password sign-in lasts: a working day; signing out revokes it sooner. */
export const CONSOLE_TOKEN_LIFETIME = '8h';

/** The page's own origin: the console calls the server that served it, and nothing else. */
const SAME_ORIGIN = '';
const TIMEOUT_MS = 30_000;

/** RFC 7617 Basic credentials, in UTF-8 as the server reads them. */
function basic(login: string, password: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${login}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

export type SignedIn =
  { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly problem: Problem };

/** A session for a token: what it holds (`GET /api/token/info`) and whose it is (`GET /api/user/get`). */
export async function openSession(secret: string, ownToken: boolean): Promise<SignedIn> {
  const api = createClient({ baseUrl: SAME_ORIGIN, token: secret, timeoutMs: TIMEOUT_MS });
  const [token, user] = await Promise.all([api.GET('/api/token/info'), api.GET('/api/user/get')]);
  if (!token.ok) return { ok: false, problem: token };
  if (!user.ok) return { ok: false, problem: user };
  return { ok: true, session: { api, token: token.data, user: user.data, ownToken } };
}

/**
 * A password sign-in: the Basic login of `POST /api/token/create` makes a token of the user's,
 * named "console" and expiring in hours, kept in this page's memory only.
 */
export async function signInWithPassword(login: string, password: string): Promise<SignedIn> {
  const anonymous = createClient({ baseUrl: SAME_ORIGIN, timeoutMs: TIMEOUT_MS });
  const issued = await anonymous.POST('/api/token/create', {
    headers: { Authorization: basic(login, password) },
    body: { name: CONSOLE_TOKEN_NAME, expiresIn: CONSOLE_TOKEN_LIFETIME },
  });
  if (!issued.ok) return { ok: false, problem: issued };
  return openSession(issued.data.token, true);
}

/** The catalogue's code for a token unknown or expired: one already gone needs no deleting. */
const UNKNOWN_TOKEN = 4;

/** Ends a session: the token a password sign-in made is deleted, so that it works nowhere any more. */
export async function signOut(session: Session): Promise<Problem | undefined> {
  if (!session.ownToken) return undefined;
  const deleted = await session.api.DELETE('/api/token/delete', { params: { query: { id: session.token.id } } });
  return deleted.ok || deleted.error?.code === UNKNOWN_TOKEN ? undefined : deleted;
}
