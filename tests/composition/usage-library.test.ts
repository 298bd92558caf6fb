import { expect } from 'chai';
import { buildUseCases } from '../../src/index.js';
import { OPERATOR } from '../../src/domain/index.js';
import { expectRight } from '../support/either.js';

const QUIET = { log: { level: 'silent' } } as const;

describe('library: usage history', () => {
  it('is built beside users and tokens, and counts what its meter is told once flushed', async () => {
    const api = await buildUseCases({ families: ['usersAndTokens', 'usage'], storage: 'memory', ...QUIET });
    try {
      const { createUser, issueToken } = api.useCases.usersAndTokens;
      expectRight(await createUser.execute({ actor: OPERATOR, username: 'ada', permissions: [] }));
      const { record } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' } }));
      const { meter, readUsage } = api.useCases.usage;
      meter.record(record.id, record.userId, 'GET /api/crypto/enc', 200);
      await meter.flush();
      const usage = expectRight(await readUsage.ofUser(OPERATOR, { username: 'ada' }, { group: 'operation' }));
      expect(usage.series.map(({ operation, count }) => ({ operation, count }))).to.deep.equal([
        { operation: 'GET /api/crypto/enc', count: 1 },
      ]);
    } finally {
      await api.close();
    }
  });

  it('is refused alone, naming the family it needs', async () => {
    const alone = buildUseCases({ families: ['usage'], storage: 'memory', ...QUIET });
    await alone.then(
      () => expect.fail('usage history alone should be refused'),
      (error: Error) => expect(error.message).to.include('usage history needs the usersAndTokens family'),
    );
  });
});
