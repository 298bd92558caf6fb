import type { Answer, Client } from '../client/index.js';
import { ALL, covers } from './permissions.js';

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

/** What a holder may give: their wildcards as they hold them, then each known permission they hold. */
export const givable = (held: readonly string[], known: readonly string[]): string[] => {
  const wildcards = held.filter((permission) => permission === ALL || permission.endsWith('::*'));
  return [...wildcards, ...known.filter((permission) => held.some((mine) => covers(mine, permission)))];
};
