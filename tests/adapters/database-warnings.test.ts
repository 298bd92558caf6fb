import { expect } from 'chai';
import { openDatabase } from '../../src/platform/persistence/database.js';

describe('adapter: Knex warnings', () => {
  it('reach the given sink as one line each, without a stack, and nothing is printed to stdout', async () => {
    const warnings: string[] = [];
    const db = openDatabase({ client: 'postgres', url: 'postgres://postgres@127.0.0.1:1/unreachable' }, (message) =>
      warnings.push(message),
    );
    const printed: unknown[] = [];
    const print = console.log;
    console.log = (...args: unknown[]) => printed.push(args);
    try {
      const failure = await db.raw('select 1').then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(failure).to.equal('connect ECONNREFUSED 127.0.0.1:1');
    } finally {
      console.log = print;
      await db.destroy();
    }
    expect(warnings).to.deep.equal(['Acquire connection error: Error: connect ECONNREFUSED 127.0.0.1:1']);
    expect(printed).to.deep.equal([]);
  });
});
