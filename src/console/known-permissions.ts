import type { Answer, Client } from '../client/index.js';
import { covers } from './permissions.js';

/**
 * Every permission this server knows, as its OpenAPI document lists them (`x-permissions`, those
 * only the use cases check included): the API's own list, so the console keeps none of its own.
 */
export async function knownPermissions(api: Client): Promise<Answer<string[]>> {
  const document = await api.GET('/api/openapi.json');
  if (!document.ok) return document;
  const listed = (document.data as { 'x-permissions'?: unknown })['x-permissions'];
  const names = Array.isArray(listed) ? listed.filter((name): name is string => typeof name === 'string') : [];
  return { ...document, data: names };
}

/**
 * What a holder may give: what they hold as they hold it (wildcards too), then each known
 * permission a wildcard of theirs covers.
 */
export const givable = (held: readonly string[], known: readonly string[]): string[] =>
  [...new Set([...held, ...known.filter((permission) => held.some((mine) => covers(mine, permission)))])].sort((a, b) =>
    orderOf(a).localeCompare(orderOf(b)),
  );

/** `*` first, then by family, each family's wildcard before its permissions. */
const orderOf = (permission: string): string => (permission === '*' ? '' : permission.replace(/\*$/, ''));
