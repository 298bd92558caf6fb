import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { expectError, httpBackends, serverForSuite, type TestServer } from '../support/http-server.js';

interface ListedUser {
  uid: string;
  username: string;
  fullName: string | null;
  email: string | null;
  permissions: string[];
  blocked: boolean;
}
interface Page {
  users: ListedUser[];
  nextCursor: string | null;
}

for (const backend of httpBackends) {
  describe(`http: GET /api/user/list (${backend.name})`, () => {
    const suite = serverForSuite(backend);
    let server: TestServer;
    let reader: string;
    before(async () => {
      server = suite.server;
      reader = await server.tokenFor(['Users::Read']);
    });

    /** A word no other test's users begin with, so that a search sees only this test's. */
    const uniqueWord = () => `q${randomBytes(4).toString('hex')}`;
    const create = async (firstname: string, lastname: string, email: string, username?: string) => {
      const admin = await server.tokenFor(['*']);
      const response = await server.send('POST', '/api/user/create', {
        token: admin,
        json: { firstname, lastname, email, password: 'correct horse battery', username },
      });
      expect(response.status, await response.clone().text()).to.equal(201);
      return (await response.json()) as ListedUser;
    };
    const list = async (query: string, token = reader): Promise<Page> => {
      const response = await server.send('GET', `/api/user/list${query}`, { token });
      expect(response.status, await response.clone().text()).to.equal(200);
      return (await response.json()) as Page;
    };
    const usernames = (page: Page) => page.users.map((user) => user.username);

    it('pages through users newest first; nextCursor is null on the last page', async () => {
      const word = uniqueWord();
      const made = [];
      for (let n = 0; n < 5; n++) made.push(await create(word, `Number${n}`, `${word}${n}@example.com`));
      const newestFirst = made.map((user) => user.username).reverse();
      const first = await list(`?query=${word}&limit=2`);
      expect(usernames(first)).to.deep.equal(newestFirst.slice(0, 2));
      expect(first.nextCursor).to.be.a('string');
      const second = await list(`?query=${word}&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(usernames(second)).to.deep.equal(newestFirst.slice(2, 4));
      const last = await list(`?query=${word}&limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
      expect(last).to.deep.equal({ users: [made[0]], nextCursor: null });
      const whole = await list(`?query=${word}`);
      expect(usernames(whole)).to.deep.equal(newestFirst);
      expect(whole.nextCursor).to.equal(null);
      expect(Object.keys(whole.users[0]!).sort()).to.include.members(['uid', 'username', 'fullName', 'blocked']);
      expect(JSON.stringify(whole)).not.to.include('scrypt');
    });

    it('keeps a cursor where it was while users are created and deleted: nobody repeated, nobody who stays skipped', async () => {
      const word = uniqueWord();
      const made = [];
      for (let n = 0; n < 4; n++) made.push(await create(word, `Stay${n}`, `${word}${n}@example.com`));
      const first = await list(`?query=${word}&limit=2`);
      expect(usernames(first)).to.deep.equal([made[3]!.username, made[2]!.username]);
      // The last user shown goes, a newer one comes, and the next page is still the rest.
      const admin = await server.tokenFor(['*']);
      const deleted = await server.send('DELETE', `/api/user/delete?username=${made[2]!.username}`, { token: admin });
      expect(deleted.status).to.equal(200);
      await create(word, 'Late', `${word}late@example.com`);
      const rest = await list(`?query=${word}&limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(usernames(rest)).to.deep.equal([made[1]!.username, made[0]!.username]);
      expect(rest.nextCursor).to.equal(null);
    });

    it('finds by a prefix of username, email, first, last or full name, ignoring case and accents', async () => {
      const word = uniqueWord();
      const zoe = await create(`Zoë${word}`, `Ö${word}brien`, `${word}.mail@example.com`);
      const other = await create('Someone', `${word}else`, `${word}other@example.com`);
      expect(usernames(await list(`?query=${encodeURIComponent(`ZOE${word.toUpperCase()}`)}`))).to.deep.equal([
        zoe.username,
      ]);
      expect(usernames(await list(`?query=${encodeURIComponent(`o${word}b`)}`))).to.deep.equal([zoe.username]);
      expect(usernames(await list(`?query=${encodeURIComponent(`zoë${word} ö${word}`)}`))).to.deep.equal([
        zoe.username,
      ]);
      expect(usernames(await list(`?query=${word}.mail`))).to.deep.equal([zoe.username]);
      expect(usernames(await list(`?query=${word}`))).to.deep.equal([other.username, zoe.username]);
      expect(usernames(await list(`?query=${zoe.username}`))).to.deep.equal([zoe.username]);
      expect(usernames(await list(`?query=${word.slice(1)}`))).to.deep.equal([]);
    });

    it('finds the letters that carry no accent as people type them without the key: ø as o, ß as ss, ł as l', async () => {
      const word = uniqueWord();
      const soren = await create(`Søren${word}`, `Straße${word}`, `${word}.ł@example.com`);
      // The username made from the name spells them out too (cut to 28 characters).
      expect(`soren${word}.strasse${word}`.startsWith(soren.username)).to.equal(true);
      for (const query of [`soren${word}`, `SØREN${word}`, `strasse${word}`, `STRASSE${word}`, `${word}.l@`])
        expect(usernames(await list(`?query=${encodeURIComponent(query)}`)), query).to.deep.equal([soren.username]);
    });

    it('filters by blocked and by a permission held, wildcards counted', async () => {
      const word = uniqueWord();
      const admin = await server.tokenFor(['*']);
      const encrypter = await create(word, 'Encrypter', `${word}1@example.com`);
      const everything = await create(word, 'Crypto', `${word}2@example.com`);
      const root = await create(word, 'Root', `${word}3@example.com`);
      const blocked = await create(word, 'Blocked', `${word}4@example.com`);
      for (const [user, perms, block] of [
        [encrypter, ['Cryptography::Encrypt'], false],
        [everything, ['Cryptography::*'], false],
        [root, ['*'], false],
        [blocked, ['Cryptography::Decrypt'], true],
      ] as const) {
        const response = await server.send('PATCH', `/api/user/update?username=${user.username}`, {
          token: admin,
          json: { perms, blocked: block },
        });
        expect(response.status, await response.clone().text()).to.equal(200);
      }
      const names = async (filters: string) => usernames(await list(`?query=${word}${filters}`)).sort();
      expect(await names('&permission=Cryptography::Encrypt')).to.deep.equal(
        [encrypter, everything, root].map((user) => user.username).sort(),
      );
      expect(await names('&permission=Cryptography::*')).to.deep.equal(
        [everything, root].map((user) => user.username).sort(),
      );
      expect(await names('&permission=*')).to.deep.equal([root.username]);
      expect(await names('&blocked=true')).to.deep.equal([blocked.username]);
      expect(await names('&blocked=false&permission=Cryptography::Decrypt')).to.deep.equal(
        [everything, root].map((user) => user.username).sort(),
      );
      const page = await list(`?query=${word}&blocked=true`);
      expect(page.users[0]).to.include({ blocked: true });
    });

    it('needs Users::Read', async () => {
      const nobody = await server.tokenFor(['Users::Update']);
      await expectError(await server.send('GET', '/api/user/list', { token: nobody }), 403, 1);
      await expectError(await server.send('GET', '/api/user/list', {}), 401, 3);
    });

    it('refuses a cursor it did not make, altered, or made for other filters with 400/7', async () => {
      const word = uniqueWord();
      for (let n = 0; n < 3; n++) await create(word, `Cursor${n}`, `${word}${n}@example.com`);
      const { nextCursor } = await list(`?query=${word}&limit=1`);
      const cursor = nextCursor!;
      const [position, signature] = cursor.split('.') as [string, string];
      const positionText = Buffer.from(position, 'base64url').toString();
      const forgedPosition = Buffer.from(positionText.replace(/^\d+/, '99999999999999')).toString('base64url');
      const flip = (text: string, at: number) =>
        text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
      const refused = [
        `${forgedPosition}.${signature}`,
        `${position}.${flip(signature, 0)}`,
        `${position}.${flip(signature, signature.length - 1)}`,
        `${flip(position, 0)}.${signature}`,
        `${position}.${signature}.x`,
        position,
        `${Buffer.from('0.00000000-0000-4000-8000-000000000000').toString('base64url')}.AAAAAAAAAAAAAAAAAAAAAA`,
      ];
      for (const forged of refused) {
        const body = await expectError(
          await server.send('GET', `/api/user/list?query=${word}&limit=1&cursor=${encodeURIComponent(forged)}`, {
            token: reader,
          }),
          400,
          7,
        );
        expect(body.details, forged).to.include('cursor');
      }
      for (const otherFilters of [`?query=${word}x`, `?query=${word}&blocked=false`, '?permission=*', '']) {
        await expectError(
          await server.send('GET', `/api/user/list${otherFilters}${otherFilters ? '&' : '?'}cursor=${cursor}`, {
            token: reader,
          }),
          400,
          7,
        );
      }
      // The same cursor with another page size is the same listing.
      expect((await list(`?query=${word}&limit=5&cursor=${cursor}`)).users).to.have.length(2);
    });

    it('refuses bad filters with 400/7 naming them, and x-uid with 400/9', async () => {
      const cases: [string, string][] = [
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
        ['?limit=-1', 'limit'],
        ['?limit=1.5', 'limit'],
        ['?limit=ten', 'limit'],
        ['?blocked=yes', 'blocked'],
        ['?blocked=1', 'blocked'],
        ['?blocked=', 'blocked'],
        ['?permission=Nope::Nothing', 'permission'],
        ['?permission=Cryptography::Nothing', 'permission'],
        ['?query=', 'query'],
        ['?query=%20%20', 'query'],
        [`?query=${'x'.repeat(321)}`, 'query'],
        ['?query=a%00b', 'query'],
        ['?sort=name', 'sort'],
        ['?limit=1&limit=2', 'limit'],
      ];
      for (const [query, field] of cases) {
        const body = await expectError(await server.send('GET', `/api/user/list${query}`, { token: reader }), 400, 7);
        expect(body.details, query).to.include(field);
      }
      await expectError(
        await server.send('GET', '/api/user/list', { token: reader, headers: { 'x-uid': 'someone' } }),
        400,
        9,
      );
    });
  });
}
