import { expect } from 'chai';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_WORDLIST } from 'secure-password-utilities/wordlists';
import { expectError, startServer, type TestServer } from '../support/http-server.js';

interface Generated {
  password: string;
  entropyBits: number;
}

const CLASSES = {
  lower: /[a-z]/,
  upper: /[A-Z]/,
  digits: /[0-9]/,
  symbols: /[!-/:-@[-`{-~]/,
} as const;
const LOOKALIKES = ['0', 'O', 'o', '1', 'l', 'I', '|'];
const EFF_WORDS = new Set(DEFAULT_WORDLIST);

describe('http: password generation', () => {
  let server: TestServer;
  let token: string;
  const gen = (query = '') =>
    server.get(`/api/password/gen${query && `?${query}`}`, { Authorization: `Bearer ${token}` });
  const generated = async (query = ''): Promise<Generated> => {
    const response = await gen(query);
    expect(response.status, query).to.equal(200);
    return (await response.json()) as Generated;
  };

  before(async () => {
    server = await startServer();
    token = await server.tokenFor(['Password::Generate']);
  });
  after(() => server.close());

  it('answers 20 printable ASCII characters of every class by default, as JSON no cache may keep', async () => {
    const response = await gen();
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('no-store');
    const { password, entropyBits } = (await response.json()) as Generated;
    expect(password).to.match(/^[!-~]{20}$/);
    for (const pattern of Object.values(CLASSES)) expect(password).to.match(pattern);
    // 94 characters to a place, less the few passwords missing a class: just under 20 × log2(94) ≈ 131.1.
    expect(entropyBits).to.be.within(130, 131.1);
  });

  it('makes every length from 8 to 128, and refuses 7, 129 and what is not a whole number with 400 code 7', async () => {
    for (const length of [8, 9, 33, 64, 127, 128]) {
      expect((await generated(`length=${length}`)).password).to.have.length(length);
    }
    for (const bad of ['7', '129', '0', '-8', '20.5', '1e2', 'twenty', '']) {
      const body = await expectError(await gen(`length=${bad}`), 400, 7);
      expect(body.details, bad).to.include('length');
    }
  });

  it('has at least one character of each class asked for, and none of a class turned off', async () => {
    for (const lower of [true, false])
      for (const upper of [true, false])
        for (const digits of [true, false])
          for (const symbols of [true, false]) {
            if (!lower && !upper && !digits && !symbols) continue;
            const wanted = { lower, upper, digits, symbols };
            const query = `length=8&lower=${lower}&upper=${upper}&digits=${digits}&symbols=${symbols}`;
            // At length 8 a class is missing from a draw often enough that a test this size sees redraws.
            for (let i = 0; i < 20; i++) {
              const { password } = await generated(query);
              for (const [name, pattern] of Object.entries(CLASSES)) {
                const has = pattern.test(password);
                expect(has, `${name} in ${password} for ${query}`).to.equal(wanted[name as keyof typeof wanted]);
              }
            }
          }
  });

  it('says how many bits a password is worth for its options', async () => {
    // Digits alone: every string of 10 digits, 10^10 of them.
    expect((await generated('length=10&lower=false&upper=false&symbols=false')).entropyBits).to.equal(33.2);
    // Lower and upper, length 8: 52^8 less the 2 × 26^8 of one case only, log2 45.59…
    expect((await generated('length=8&digits=false&symbols=false')).entropyBits).to.equal(45.5);
  });

  it('refuses all four classes turned off, and a flag that is not true or false, with 400 code 7', async () => {
    const body = await expectError(await gen('lower=false&upper=false&digits=false&symbols=false'), 400, 7);
    expect(body.details).to.equal('at least one of lower, upper, digits and symbols must be true');
    for (const bad of ['yes', '1', 'TRUE', '']) await expectError(await gen(`symbols=${bad}`), 400, 7);
  });

  it('leaves out the look-alike characters, or the characters listed, from every password', async () => {
    for (let i = 0; i < 30; i++) {
      const { password } = await generated('length=128&exclude=lookalike');
      for (const character of LOOKALIKES) expect(password).not.to.include(character);
    }
    // Characters a query string means something by, percent-encoded as the docs say.
    const listed = '"\'`\\%&+#=?aeiou';
    for (let i = 0; i < 30; i++) {
      const { password } = await generated(`length=128&exclude=${encodeURIComponent(listed)}`);
      for (const character of listed) expect(password).not.to.include(character);
    }
    // Leaving out every digit but 7: every password still has a digit, so it has a 7.
    for (let i = 0; i < 10; i++) {
      expect((await generated('length=8&exclude=012345689')).password).to.include('7');
    }
  });

  it('refuses an exclude that is not printable ASCII, is empty, or leaves a wanted class empty, with 400 code 7', async () => {
    for (const bad of ['a%20b', '%C3%A9', '', '%09', 'x'.repeat(95)]) {
      const body = await expectError(await gen(`exclude=${bad}`), 400, 7);
      expect(body.details, bad).to.include('exclude');
    }
    const emptied = await expectError(await gen('exclude=0123456789'), 400, 7);
    expect(emptied.details).to.equal('exclude leaves no character of digits; set digits=false or exclude less');
    // With digits turned off the same exclude asks for nothing impossible.
    expect((await generated('exclude=0123456789&digits=false')).password).not.to.match(/[0-9]/);
  });

  it('makes a passphrase of 4 to 12 words of the EFF long word list, joined by hyphens', async () => {
    for (const words of [4, 6, 12]) {
      const response = await gen(`words=${words}`);
      expect(response.headers.get('cache-control')).to.equal('no-store');
      const { password, entropyBits } = (await response.json()) as Generated;
      const parts = password.split('-');
      expect(parts).to.have.length(words);
      for (const word of parts) expect(EFF_WORDS.has(word), word).to.equal(true);
      expect(entropyBits).to.equal(Math.floor(words * Math.log2(7772) * 10) / 10);
    }
    for (const bad of ['3', '13', '0', 'six', '']) await expectError(await gen(`words=${bad}`), 400, 7);
  });

  it('refuses words beside length, a class or exclude with 400 code 7, naming them', async () => {
    for (const other of ['length=20', 'lower=true', 'symbols=false', 'exclude=lookalike']) {
      const body = await expectError(await gen(`words=5&${other}`), 400, 7);
      expect(body.details).to.include('words makes a passphrase and cannot be given with');
      expect(body.details).to.include(other.split('=')[0]);
    }
  });

  it('refuses a parameter it does not take, and a repeated one, with 400 code 7', async () => {
    await expectError(await gen('size=20'), 400, 7);
    await expectError(await gen('length=20&length=30'), 400, 7);
  });

  it('never answers the same password twice', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) seen.add((await generated('length=8')).password);
    expect(seen.size).to.equal(200);
  });

  it('answers 401 code 3 without a token and 403 code 1 to a token without Password::Generate', async () => {
    await expectError(await server.get('/api/password/gen'), 401, 3);
    const other = await server.tokenFor(['Cryptography::*', 'Phone::*']);
    await expectError(await server.get('/api/password/gen', { Authorization: `Bearer ${other}` }), 403, 1);
    const wildcard = await server.tokenFor(['Password::*']);
    expect((await server.get('/api/password/gen', { Authorization: `Bearer ${wildcard}` })).status).to.equal(200);
  });
});

describe('http: password generation and the logs', () => {
  it('never writes a password it made to the log, nor the options it was asked for', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'utility-api-password-log-'));
    const file = join(dir, 'server.log');
    const fd = openSync(file, 'w');
    const server = await startServer({ logFd: fd, overrides: { log: { level: 'debug' } } });
    const passwords: string[] = [];
    try {
      const token = await server.tokenFor(['Password::Generate']);
      for (const query of ['', 'length=8', 'words=4', 'exclude=lookalike&length=40']) {
        const response = await server.get(`/api/password/gen?${query}`, { Authorization: `Bearer ${token}` });
        expect(response.status).to.equal(200);
        passwords.push(((await response.json()) as Generated).password);
      }
    } finally {
      await server.close();
      closeSync(fd);
    }
    const log = readFileSync(file, 'utf8');
    rmSync(dir, { recursive: true, force: true });
    const requests = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.path === '/api/password/gen');
    expect(requests).to.have.length(4);
    for (const password of passwords) expect(log).not.to.include(password);
    // Any two words of the passphrase in a row, too: a part of it would still give much of it away.
    const words = passwords[2]!.split('-');
    for (let i = 1; i < words.length; i++) expect(log).not.to.include(`${words[i - 1]}-${words[i]}`);
    expect(log).not.to.include('lookalike');
  });
});
