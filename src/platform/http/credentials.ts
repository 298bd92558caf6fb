import { strictlyDecoded } from './well-formed.js';

// What a request's Authorization header presents: nothing, something unusable, a bearer token, or a login and password.

/** `Bearer <token>`, case-insensitive scheme, exactly one token. */
const BEARER = /^Bearer +(\S+) *$/i;
/** `Basic <base64 of login:password>`, case-insensitive scheme. */
const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const BASIC_SCHEME = /^Basic(?: |$)/i;
/**
 * What a Basic value that cannot be read (not base64, no colon, not UTF-8) logs in as: a name no
 * account can have (usernames are a-z, 0-9, ".", "_" and "-"), so that it costs the same scrypt
 * verification as a wrong password and is counted, and throttled, as a failure like one.
 */
const UNREADABLE_BASIC: Presented = { kind: 'basic', login: ':', password: '' };

export type Presented =
  | { readonly kind: 'none' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'bearer'; readonly secret: string }
  | { readonly kind: 'basic'; readonly login: string; readonly password: string };

/** What the Authorization header presents: nothing, something unusable, a bearer token, or a login and password. */
export function presentedSecret(header: string | undefined): Presented {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const bearer = BEARER.exec(header);
  if (bearer) return { kind: 'bearer', secret: bearer[1]! };
  if (!BASIC_SCHEME.test(header)) return { kind: 'malformed' };
  const basic = BASIC.exec(header);
  return (basic && basicCredentials(basic[1]!)) ?? UNREADABLE_BASIC;
}

/** `login:password` from strict base64 of UTF-8; the password may hold colons, the login may not be empty. */
function basicCredentials(encoded: string): Presented | undefined {
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) return undefined;
  const text = strictlyDecoded(bytes);
  if (text === undefined) return undefined;
  const colon = text.indexOf(':');
  return colon > 0 ? { kind: 'basic', login: text.slice(0, colon), password: text.slice(colon + 1) } : undefined;
}
