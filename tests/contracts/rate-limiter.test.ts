import { expect } from 'chai';
import { OPERATOR, type Actor } from '../../src/domain/auth/actor.js';
import type { RateLimiter } from '../../src/domain/pipeline/ports.js';
import { ADMIT_EVERY_REQUEST } from '../../src/domain/pipeline/rate-limiter.js';

/** Every adapter of the rate-limiter port, each opened fresh for one test. */
const rateLimiterAdapters: { name: string; open: () => Promise<RateLimiter> }[] = [{ name: 'admit every request (the default)', open: async () => ADMIT_EVERY_REQUEST }];

const OPERATIONS = ['GET /api/crypto/enc', 'POST /api/token/create', 'GET /api/game/:game/maps'];
const ACTORS: Actor[] = [OPERATOR];
const ADDRESSES = ['127.0.0.1', '::1', 'unknown'];

/** What the pipeline may rely on, whatever the adapter counts. */
for (const adapter of rateLimiterAdapters) {
  describe(`contract: RateLimiter (${adapter.name})`, () => {
    let limiter: RateLimiter;
    beforeEach(async () => {
      limiter = await adapter.open();
    });

    it('admits the first request of any operation, actor and address', async () => {
      for (const operation of OPERATIONS) for (const actor of ACTORS) for (const address of ADDRESSES) expect(await limiter.admit(operation, actor, address)).to.equal(undefined);
    });

    it('answers every request, many in a row, with admission or a 429 saying in whole seconds (at least 1) when to come back, and never rejects', async () => {
      for (let i = 0; i < 1_000; i++) {
        const verdict = await limiter.admit(OPERATIONS[0]!, OPERATOR, '127.0.0.1');
        if (verdict !== undefined) {
          expect(verdict._tag).to.equal('RateLimited');
          expect(verdict.retryAfterSeconds).to.satisfy((seconds: number) => Number.isInteger(seconds) && seconds >= 1);
        }
      }
    });
  });
}
