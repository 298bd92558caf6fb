import type { Answer, Client } from '../client/index.js';
import { covers } from './permissions.js';

/**
 * Every permission this server's operations need, as its OpenAPI document names them
 * (`x-permission` of each operation): the API's own list, so the console keeps none of its own.
 */
export async function knownPermissions(api: Client): Promise<Answer<string[]>> {
  const document = await api.GET('/api/openapi.json');
  if (!document.ok) return document;
  const paths = (document.data as { paths?: Record<string, Record<string, { 'x-permission'?: unknown }>> }).paths ?? {};
  const named = new Set<string>();
  for (const operations of Object.values(paths))
    for (const operation of Object.values(operations))
      if (typeof operation?.['x-permission'] === 'string') named.add(operation['x-permission']);
  return { ...document, data: [...named].sort() };
}

/**
 * What a holder may give: what they hold as they hold it (wildcards too), then each known
 * permission a wildcard of theirs covers. The document names only the permissions operations
 * ask for, not those use cases check (`Tokens::Read`): a wildcard is offered whole for those.
 */
export const givable = (held: readonly string[], known: readonly string[]): string[] =>
  [...new Set([...held, ...known.filter((permission) => held.some((mine) => covers(mine, permission)))])].sort((a, b) =>
    orderOf(a).localeCompare(orderOf(b)),
  );

/** `*` first, then by family, each family's wildcard before its permissions. */
const orderOf = (permission: string): string => (permission === '*' ? '' : permission.replace(/\*$/, ''));
