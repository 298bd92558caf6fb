import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { loadConfig } from '../../src/config/load-config.js';
import { expectRight } from '../support/either.js';

const errorsOf = (env: NodeJS.ProcessEnv): string[] => {
  const result = loadConfig({ env });
  if (E.isRight(result)) throw new Error('expected the config to be refused');
  return result.left;
};

describe('config: usage history', () => {
  it('keeps hours 90 days, writes counts every 10 s and compacts by default, all settable from the environment', () => {
    expect(expectRight(loadConfig({ env: {} })).usage).to.deep.equal({
      retentionDays: 90,
      flushIntervalMs: 10_000,
      compaction: true,
    });
    const config = expectRight(
      loadConfig({
        env: {
          UTILITY_API_USAGE_RETENTION_DAYS: '7',
          UTILITY_API_USAGE_FLUSH_MS: '500',
          UTILITY_API_USAGE_COMPACTION: 'false',
        },
      }),
    );
    expect(config.usage).to.deep.equal({ retentionDays: 7, flushIntervalMs: 500, compaction: false });
  });

  it('refuses a retention or a flush interval out of range or not a whole number, naming the variable', () => {
    expect(errorsOf({ UTILITY_API_USAGE_RETENTION_DAYS: '0', UTILITY_API_USAGE_FLUSH_MS: '50' })).to.deep.equal([
      'Invalid setting usage.retentionDays (from env UTILITY_API_USAGE_RETENTION_DAYS): expected an integer from 1 to 3650, got 0',
      'Invalid setting usage.flushIntervalMs (from env UTILITY_API_USAGE_FLUSH_MS): expected an integer from 100 to 3600000, got 50',
    ]);
    expect(errorsOf({ UTILITY_API_USAGE_RETENTION_DAYS: '90d', UTILITY_API_USAGE_COMPACTION: 'yes' })).to.deep.equal([
      'Invalid setting usage.retentionDays (from env UTILITY_API_USAGE_RETENTION_DAYS): expected an integer from 1 to 3650, got "90d"',
      'Invalid setting usage.compaction (from env UTILITY_API_USAGE_COMPACTION): expected true or false, got "yes"',
    ]);
  });
});
