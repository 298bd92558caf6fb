import { expect } from 'chai';
import type { TestServer } from './http-server.js';

/** A usage answer of GET /api/token/usage or /api/user/usage. */
export interface Usage {
  from: string;
  to: string;
  by: 'hour' | 'day';
  series: { at: string; operation?: string; status?: string; count: number }[];
  total: number;
}

/** Asks `path` with `token` (and headers) and expects a usage answer. */
export const usageOf = async (
  server: TestServer,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<Usage> => {
  const response = await server.send('GET', path, { token, headers });
  expect(response.status, await response.clone().text()).to.equal(200);
  return (await response.json()) as Usage;
};
