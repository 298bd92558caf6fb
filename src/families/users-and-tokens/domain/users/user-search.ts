import type { User } from '../../../../domain/identity/user.js';
import { foldUndecomposedLetters } from '../../../../domain/text.js';

/**
 * Text as a user search compares it: compatibility forms unfolded, accents dropped, lower-case,
 * and the letters that carry no accent to drop spelled as people type them ("Zoë" and "ZOE" both
 * read "zoe", "Søren" reads "soren"). Every store compares what this gives, never its own folding,
 * so that a search finds the same users on each.
 */
export function foldForSearch(text: string): string {
  return foldUndecomposedLetters(
    text
      .normalize('NFKD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase(),
  );
}

/**
 * What a search's prefix is matched against besides the username (already lower-case ASCII):
 * the email, the full name (so a first name matches too) and the last name, each folded.
 */
export interface UserSearchKeys {
  readonly email: string | null;
  readonly fullName: string | null;
  readonly lastName: string | null;
}

export function searchKeysOf(user: Pick<User, 'email' | 'firstName' | 'lastName'>): UserSearchKeys {
  const fullName = [user.firstName, user.lastName].filter((part) => part).join(' ');
  return {
    email: user.email === null ? null : foldForSearch(user.email),
    fullName: fullName === '' ? null : foldForSearch(fullName),
    lastName: user.lastName ? foldForSearch(user.lastName) : null,
  };
}

/** Whether the folded `prefix` begins the user's username or one of their search keys. */
export function matchesSearch(user: User, prefix: string): boolean {
  const { email, fullName, lastName } = searchKeysOf(user);
  return [foldForSearch(user.username), email, fullName, lastName].some((key) => key?.startsWith(prefix));
}

/**
 * The least text greater than every text that begins with `prefix`, comparing code point by
 * code point (as UTF-8 bytes compare): `prefix` with its last character moved one on. Undefined
 * when no text is greater (an empty prefix, or one of nothing but U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const characters = [...prefix];
  while (characters.length > 0) {
    const last = characters.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // Surrogates are no characters of their own: after U+D7FF comes U+E000.
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return characters.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}
