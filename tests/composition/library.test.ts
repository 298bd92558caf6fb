import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { buildUseCases, FAMILY_NAMES, InvalidSettings, type LibrarySettings } from '../../src/index.js';
import { createHttpApp } from '../../src/http.js';
import { OPERATOR, Permission } from '../../src/domain/index.js';
import { sqlDatabases, type TestDatabase } from '../support/databases.js';
import { expectLeftTag, expectRight } from '../support/either.js';

/**
 * Issue 12 §7: the library entry builds chosen families from a settings object, on each storage.
 * tests/package runs the same entry from the packed package; this runs it from src/ on every
 * database, and checks what it refuses.
 */
const KEY = randomBytes(32).toString('base64');
const QUIET = { log: { level: 'silent' } } as const;

const storageOf = (database: TestDatabase): LibrarySettings<never> =>
  database.env.UTILITY_API_STORAGE === 'sqlite'
    ? { families: [], storage: 'sqlite', database: { sqliteFile: database.env.UTILITY_API_SQLITE_FILE! } }
    : { families: [], storage: 'postgres', database: { url: database.env.DATABASE_URL! } };

/** Creates Ada, issues her a token that may encrypt, and has it verified, as the README's example does. */
async function issueAndVerify(settings: Omit<LibrarySettings<never>, 'families'>): Promise<string> {
  const api = await buildUseCases({
    ...settings,
    ...QUIET,
    families: ['usersAndTokens', 'crypto'],
    encryption: { key: KEY },
  });
  const { createUser, issueToken, authenticate } = api.useCases.usersAndTokens;
  expectRight(
    await createUser.execute({ actor: OPERATOR, username: 'ada', permissions: [Permission.CryptographyEncrypt] }),
  );
  const { secret, record } = expectRight(await issueToken.execute({ actor: OPERATOR, owner: { username: 'ada' } }));
  expect(expectRight(await authenticate.execute(secret, Permission.CryptographyEncrypt)).user.username).to.equal('ada');
  expect(
    expectLeftTag(await authenticate.execute(secret, Permission.CryptographyDecrypt), 'NotAuthorized'),
  ).to.deep.equal({ _tag: 'NotAuthorized', permission: 'Cryptography::Decrypt' });
  expect(await api.close()).to.deep.equal({ stopFailures: [] });
  return record.id;
}

describe('library: buildUseCases builds the chosen families from a settings object', () => {
  it('builds only the families named, and the crypto use cases round-trip', async () => {
    const api = await buildUseCases({ families: ['crypto'], storage: 'memory', encryption: { key: KEY }, ...QUIET });
    try {
      expect(Object.keys(api.useCases)).to.deep.equal(['crypto']);
      const ciphertext = expectRight(api.useCases.crypto.encryptText.execute('hello'));
      expect(expectRight(api.useCases.crypto.decryptText.execute(ciphertext))).to.equal('hello');
    } finally {
      await api.close();
    }
  });

  it('issues and verifies a token in memory', async () => {
    await issueAndVerify({ storage: 'memory' });
  });

  for (const { name, open } of sqlDatabases) {
    it(`keeps users and tokens, and the token's use, in the database it is given (${name})`, async () => {
      const database = await open();
      try {
        const tokenId = await issueAndVerify(storageOf(database));
        expect(await database.db('users').where({ username: 'ada' }).first()).to.include({ username: 'ada' });
        expect(Number((await database.db('tokens').where({ id: tokenId }).first()).uses)).to.equal(1);
      } finally {
        await database.drop();
      }
    });
  }

  const refusal = async (settings: LibrarySettings<never>): Promise<readonly string[]> => {
    try {
      await (await buildUseCases(settings)).close();
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidSettings);
      return (error as InvalidSettings).problems;
    }
    throw new Error('the settings were accepted');
  };

  it('refuses settings it cannot build from, one line per problem naming the setting', async () => {
    expect(await refusal({ families: ['crypto'] as never[], storage: 'memory' })).to.deep.equal([
      'Missing setting encryption.key: the crypto family needs base64 of 32 random bytes',
    ]);
    expect(await refusal({ families: ['cryptography'] as never[] })).to.deep.equal([
      `Invalid setting families: expected a list of ${FAMILY_NAMES.join(', ')}, got ["cryptography"]`,
    ]);
    expect(await refusal({ families: [], storage: 'mongo' as never, auth: { verifiedTokenTtlMs: -1 } })).to.deep.equal([
      'Invalid setting storage: expected "memory", "sqlite" or "postgres", got "mongo"',
      'Invalid setting auth.verifiedTokenTtlMs: expected an integer from 0 to 3600000, got -1',
    ]);
    expect(await refusal({ families: [], storage: 'postgres' })).to.deep.equal([
      'Invalid setting database.url: storage "postgres" needs a connection string (env DATABASE_URL)',
    ]);
  });

  it('reads no environment variable: the settings given are the settings used', async () => {
    const saved = process.env.UTILITY_API_STORAGE;
    process.env.UTILITY_API_STORAGE = 'postgres';
    try {
      // Were the variable read, PostgreSQL without a URL would be refused.
      await (await buildUseCases({ families: [], storage: 'memory', ...QUIET })).close();
    } finally {
      if (saved === undefined) delete process.env.UTILITY_API_STORAGE;
      else process.env.UTILITY_API_STORAGE = saved;
    }
  });

  it('builds weather alone with the gazetteer it finds cities in, as it does beside location', async () => {
    for (const families of [['weather'], ['location', 'weather']] as const) {
      const api = await buildUseCases({ families, storage: 'memory', weather: { openMeteoUrl: 'off' }, ...QUIET });
      try {
        const { getCurrentWeather } = api.useCases.weather;
        // The city is looked up before Open-Meteo (off here) would be asked.
        expectLeftTag(await getCurrentWeather.execute({ city: 'Berlin, DE' }), 'EndpointDisabled');
        expectLeftTag(await getCurrentWeather.execute({ city: 'Nowhere At All' }), 'InformationNotFound');
      } finally {
        await api.close();
      }
    }
  });

  it('serves HTTP only over a build that checks tokens, and only over what buildUseCases returned', async () => {
    const api = await buildUseCases({ families: ['crypto'], storage: 'memory', encryption: { key: KEY }, ...QUIET });
    try {
      expect(() => createHttpApp(api as never)).to.throw(InvalidSettings, 'the HTTP app needs usersAndTokens');
      expect(() => createHttpApp({ ...api } as never)).to.throw(
        TypeError,
        'createHttpApp takes what buildUseCases returned',
      );
    } finally {
      await api.close();
    }
  });
});
