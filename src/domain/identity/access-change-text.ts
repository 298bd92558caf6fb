import type { AccessChange } from './access-changes.js';

/** `user:<id>` or `token:<id>`: how a change travels where only text does (a NOTIFY payload, a Redis message). */
export const accessChangeText = (change: AccessChange): string => `${change.kind}:${change.id}`;

/** The change a text names, or undefined for anything else (a newer version's message, say). */
export function accessChangeOf(text: string): AccessChange | undefined {
  const separator = text.indexOf(':');
  const kind = text.slice(0, separator);
  const id = text.slice(separator + 1);
  if (separator < 1 || id === '') return undefined;
  return kind === 'user' || kind === 'token' ? { kind, id } : undefined;
}
