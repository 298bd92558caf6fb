import { expect } from 'chai';
import type { AddressObject } from 'mailparser';
import { OPERATOR } from '../../src/domain/identity/actor.js';
import { MemoryMailer } from '../../src/families/mail/adapters/memory-mailer.js';
import { mailBodyBytes } from '../../src/families/mail/mail-routes.js';
import { expectRight } from '../support/either.js';
import { expectError, httpBackends, startServer, type TestServer } from '../support/http-server.js';
import { sqlDatabases } from '../support/databases.js';
import { ManualClock } from '../support/manual-clock.js';
import { startSmtpFixture, type SmtpFixture } from '../support/smtp-fixture.js';

interface Accepted {
  readonly id: string;
  readonly status: string;
  readonly messageId: string;
}
interface StatusBody {
  readonly id: string;
  readonly status: 'queued' | 'sent' | 'failed';
  readonly to: string[];
  readonly subject: string;
  readonly attempts: number;
  readonly createdAt: string;
  readonly sentAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly lastError: string | null;
  readonly recipients: {
    address: string;
    name: string | null;
    status: 'pending' | 'delivered' | 'refused';
    lastError: string | null;
  }[];
}

const A_MAIL = { to: 'ada@example.com', subject: 'Hello', content: 'Hi **there**' };
const A_FILE = { filename: 'hello.txt', contentType: 'text/plain', content: Buffer.from('Hello').toString('base64') };

/** A worker that looks often and retries soon, so that a test waits milliseconds, not minutes. */
const QUICK_DELIVERY = { pollIntervalMs: 20, retryBaseMs: 40, retryMaxMs: 80, smtpConnections: 2 };

/**
 * For the describe block it is called in: a server on `database` delivering to an SMTP server of
 * its own quickly, and a token that may send; all of them closed after the block.
 */
function deliveringServer(
  database: (typeof sqlDatabases)[number],
  { env = {}, mail = {}, clock }: { env?: Record<string, string>; mail?: Record<string, unknown>; clock?: ManualClock },
): { readonly smtp: SmtpFixture; readonly server: TestServer; readonly token: string } {
  const running = {} as { smtp: SmtpFixture; server: TestServer; token: string; drop: () => Promise<void> };
  before(async () => {
    running.smtp = await startSmtpFixture();
    const opened = await database.open();
    running.drop = opened.drop;
    running.server = await startServer({
      env: { ...opened.env, UTILITY_API_SMTP_URL: running.smtp.url, ...env },
      overrides: { mail: { ...QUICK_DELIVERY, ...mail } },
      clock,
    });
    running.token = await running.server.tokenFor(['Mail::Send']);
  });
  after(async () => {
    await running.server.close();
    await running.drop();
    await running.smtp.close();
  });
  return running;
}

const send = (server: TestServer, token: string, json: unknown, headers: Record<string, string> = {}) =>
  server.send('POST', '/api/mail/send', { token, json, headers });
const statusOf = (server: TestServer, token: string, id: string) =>
  server.get(`/api/mail/status?id=${id}`, { Authorization: `Bearer ${token}` });

async function accepted(response: Response): Promise<Accepted> {
  expect(response.status, await response.clone().text()).to.equal(202);
  return (await response.json()) as Accepted;
}

/** Polls the status until it is `status`, and gives it. */
async function eventually(
  server: TestServer,
  token: string,
  id: string,
  status: StatusBody['status'],
  timeoutMs = 10_000,
): Promise<StatusBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await (await statusOf(server, token, id)).json()) as StatusBody;
    if (body.status === status) return body;
    if (Date.now() > deadline)
      expect.fail(`message ${id} still ${body.status} (${body.lastError}) after ${timeoutMs} ms, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const storedCount = async (server: TestServer) =>
  expectRight(await server.app.useCases.mail.messageReader.list(OPERATOR, { limit: 1000 })).length;
const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  [field ?? []].flat().flatMap((object) => object.value.map((each) => each.address ?? ''));

for (const backend of httpBackends) {
  describe(`http: mail (${backend.name}, memory mailer)`, () => {
    let server: TestServer;
    let drop: () => Promise<void>;
    let token: string;
    /** Where the server delivers, so that the tests read what it handed over. */
    const mailer = new MemoryMailer();
    before(async () => {
      const database = await backend.open();
      drop = database.drop;
      server = await startServer({
        env: database.env,
        overrides: {
          mail: { ...QUICK_DELIVERY, maxContentBytes: 2048, maxAttachmentBytes: 3000, from: 'noreply@example.com' },
        },
        mailer,
      });
      token = await server.tokenFor(['Mail::Send']);
    });
    after(async () => {
      await server.close();
      await drop();
    });

    it('accepts a message with 202 once stored, then delivers it: its status says so', async () => {
      const body = await accepted(
        await send(server, token, { ...A_MAIL, cc: ['grace@example.com'], fromName: 'Support' }),
      );
      expect(Object.keys(body)).to.deep.equal(['id', 'status', 'messageId']);
      expect(body.status).to.equal('queued');
      expect(body.messageId).to.equal(`<${body.id}@example.com>`);
      const sent = await eventually(server, token, body.id, 'sent');
      expect(sent).to.deep.include({
        id: body.id,
        to: ['ada@example.com'],
        subject: 'Hello',
        attempts: 1,
        nextAttemptAt: null,
        lastError: null,
      });
      expect(Date.parse(sent.sentAt!)).to.be.at.least(Date.parse(sent.createdAt));
      const delivered = mailer.delivered.find((message) => message.id === body.id)!;
      expect(delivered).to.deep.include({
        subject: 'Hello',
        text: 'Hi **there**',
        html: '<p>Hi <strong>there</strong></p>\n',
        cc: ['grace@example.com'],
      });
      expect(delivered.from).to.deep.equal({ address: 'noreply@example.com', name: 'Support' });
    });

    it('refuses a request without a token (401/3) or Mail::Send (403/1), storing nothing', async () => {
      const before = await storedCount(server);
      await expectError(await server.send('POST', '/api/mail/send', { json: A_MAIL }), 401, 3);
      await expectError(await send(server, await server.tokenFor(['Mail::Read']), A_MAIL), 403, 1);
      expect(await storedCount(server)).to.equal(before);
    });

    it('names missing fields (400/10) and each invalid one (400/11), storing nothing', async () => {
      const before = await storedCount(server);
      expect((await expectError(await send(server, token, {}), 400, 10)).details).to.equal(
        'Missing: to, subject, content',
      );
      expect((await expectError(await send(server, token, { subject: 'x', content: 'y' }), 400, 10)).details).to.equal(
        'Missing: to',
      );
      const invalid: [unknown, string][] = [
        [{ ...A_MAIL, to: 'Ada <ada@example.com' }, 'to must be an email address'],
        [{ ...A_MAIL, to: '"Ada <ada@example.com>' }, 'to must be an email address'],
        [
          { ...A_MAIL, cc: ['"Ada\r\nBcc: x@example.com" <ada@example.com>'] },
          'cc[0] has a display name with a line break',
        ],
        [{ ...A_MAIL, replyTo: { name: 'n'.repeat(201), address: 'h@example.com' } }, 'more than 200 characters'],
        [{ ...A_MAIL, to: { name: 'Ada', address: 'ada' } }, 'to.address must be an email address'],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, content: 'YQ' }] },
          'attachments[0].content must be the file in base64',
        ],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, content: 'YR==' }] },
          'attachments[0].content must be the file in base64',
        ],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, contentType: 'text/html' }] },
          'attachments[0].contentType must be one of',
        ],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, filename: '../a.pdf' }] },
          'attachments[0].filename must be a name alone',
        ],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, filename: 'a\u0000.pdf' }] },
          'attachments[0].filename must not contain',
        ],
        [{ ...A_MAIL, attachments: [{ ...A_FILE, cid: 'x' }] }, 'takes only filename, contentType and content'],
        [{ ...A_MAIL, attachments: A_FILE }, 'attachments must be a list'],
        [
          { ...A_MAIL, attachments: [{ ...A_FILE, content: Buffer.alloc(3001).toString('base64') }] },
          'attachments must be at most 3000 bytes together, once decoded',
        ],
        [{ ...A_MAIL, to: ['ada@example.com', 'x'] }, 'to[1] must be'],
        [{ ...A_MAIL, bcc: 'ada@example.com\r\nX-Injected: 1' }, 'bcc must be'],
        [{ ...A_MAIL, subject: 'Hi\r\nBcc: victim@example.com' }, 'subject must not contain line breaks'],
        [{ ...A_MAIL, fromName: 'Support\nBcc: victim@example.com' }, 'fromName must not contain line breaks'],
        [{ ...A_MAIL, fromName: 'support@bank.com' }, 'fromName must not contain an address'],
        [{ ...A_MAIL, fromName: 'Bank <x@y>' }, 'fromName must not contain an address'],
        [{ ...A_MAIL, fromName: 'Bank <help>' }, 'fromName must not contain an address'],
        [{ ...A_MAIL, fromName: 'support\uff20bank.com' }, 'fromName must not contain an address'],
        [{ ...A_MAIL, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }, 'at most 50 recipients'],
        [{ ...A_MAIL, content: 'x'.repeat(2049) }, 'content must be at most 2048 bytes'],
        [{ ...A_MAIL, content: 'Dear {{name}}' }, 'content uses {{name}}'],
        [{ ...A_MAIL, user: { name: 'Ada' } }, 'the variable user must be a string or a number'],
        [{ ...A_MAIL, list: ['a'] }, 'the variable list must be'],
        [{ ...A_MAIL, text: 'plain' }, 'text is no longer taken'],
        [{ ...A_MAIL, html: '<p>x</p>' }, 'html is no longer taken'],
        [{ ...A_MAIL, url: 'https://example.com' }, 'url is no longer taken'],
        [{ ...A_MAIL, 'bad-name': 1 }, 'is not a field, nor a variable name'],
        // Used nowhere, it would have been read and dropped: a misspelt field, say.
        [
          { ...A_MAIL, fromname: 'Support' },
          'fromname is neither a field nor a variable that subject or content uses as {{fromname}}',
        ],
        [{ ...A_MAIL, subject: 42 }, 'subject must be text'],
        [[A_MAIL], 'the body must be a JSON object'],
      ];
      for (const [body, details] of invalid) {
        expect(
          (await expectError(await send(server, token, body), 400, 11)).details,
          JSON.stringify(body).slice(0, 80),
        ).to.include(details);
      }
      expect(await storedCount(server)).to.equal(before);
    });

    it('takes a body up to twice mail.maxContentBytes plus 64 KiB and room for the attachments, beyond the server’s usual limit, and no more', async () => {
      // Every character written as a JSON escape: 18 KB of body for 2 KB of content and a subject of 998 characters.
      const escaped = (text: string) =>
        [...text].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
      const body = `{"to":"ada@example.com","subject":"${escaped('S'.repeat(998))}","content":"${escaped('c'.repeat(2048))}"}`;
      expect(body.length).to.be.above(server.app.config.http.maxBodyBytes);
      const big = await server.send('POST', '/api/mail/send', {
        token,
        raw: { body, contentType: 'application/json' },
      });
      expect(big.status, await big.clone().text()).to.equal(202);
      // 2 KiB of content, 64 KiB, 3000 bytes of attachments in base64 (4000) and 1 KiB for each of 10 attachments' names.
      const limit = mailBodyBytes({ maxContentBytes: 2048, maxAttachmentBytes: 3000 });
      expect(limit).to.equal(2 * 2048 + 65_536 + 4000 + 10 * 1024);
      const tooBig = await send(server, token, { ...A_MAIL, filler: 'y'.repeat(limit) });
      expect((await expectError(tooBig, 400, 11)).details).to.equal(`the body must be at most ${limit} bytes`);
    });

    it('fills {{variables}} in, and answers the same Idempotency-Key with the first answer (Idempotent-Replayed), another body with 409/26', async () => {
      const mail = { ...A_MAIL, subject: 'Order {{order}}', content: 'Thanks, {{name}}', order: 42, name: 'Ada' };
      const key = { 'Idempotency-Key': `order-${Date.now()}` };
      const first = await send(server, token, mail, key);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const body = await accepted(first);
      const before = await storedCount(server);
      const replay = await send(
        server,
        token,
        { name: 'Ada', order: 42, ...A_MAIL, subject: 'Order {{order}}', content: 'Thanks, {{name}}' },
        key,
      );
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(await accepted(replay)).to.deep.equal(body);
      await expectError(await send(server, token, { ...mail, order: 43 }, key), 409, 26);
      // The key is the token's: another token's same key is another key.
      expect((await accepted(await send(server, await server.tokenFor(['Mail::Send']), mail, key))).id).to.not.equal(
        body.id,
      );
      expect(await storedCount(server)).to.equal(before + 1);
      expect((await eventually(server, token, body.id, 'sent')).subject).to.equal('Order 42');
      const delivered = mailer.delivered.filter((message) => message.id === body.id);
      expect(delivered.map((message) => message.text)).to.deep.equal(['Thanks, Ada']);
    });

    it('answers the same Idempotency-Key and attachments with the first answer, other attachments with 409/26', async () => {
      const mail = { ...A_MAIL, attachments: [A_FILE] };
      const key = { 'Idempotency-Key': `files-${Date.now()}` };
      const body = await accepted(await send(server, token, mail, key));
      const replay = await send(server, token, { ...A_MAIL, attachments: [{ ...A_FILE }] }, key);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(await accepted(replay)).to.deep.equal(body);
      const other = Buffer.from('Hello!').toString('base64');
      for (const attachments of [
        [{ ...A_FILE, content: other }],
        [{ ...A_FILE, filename: 'hi.txt' }],
        [],
        [A_FILE, A_FILE],
      ])
        await expectError(await send(server, token, { ...A_MAIL, attachments }, key), 409, 26);
      await eventually(server, token, body.id, 'sent');
      expect(
        mailer.delivered.filter((message) => message.id === body.id).map((message) => message.attachments),
      ).to.deep.equal([[{ filename: 'hello.txt', contentType: 'text/plain', content: Buffer.from('Hello') }]]);
    });

    it('shows the display names of the recipients in a status and a list', async () => {
      const sender = await server.tokenFor(['Mail::Send']);
      const { id } = await accepted(
        await send(server, sender, {
          ...A_MAIL,
          to: ['"Ada Lovelace" <ada@example.com>', 'grace@example.com'],
          cc: { name: 'Zoë – 中文', address: 'zoe@example.com' },
          bcc: 'Audit Team <audit@example.com>',
        }),
      );
      const status = (await (await statusOf(server, sender, id)).json()) as StatusBody;
      expect(status.to).to.deep.equal(['ada@example.com', 'grace@example.com']);
      expect(status.recipients.map(({ address, name }) => ({ address, name }))).to.deep.equal([
        { address: 'ada@example.com', name: 'Ada Lovelace' },
        { address: 'grace@example.com', name: null },
        { address: 'zoe@example.com', name: 'Zoë – 中文' },
        { address: 'audit@example.com', name: 'Audit Team' },
      ]);
      const listed = (await (await server.get('/api/mail/list', { Authorization: `Bearer ${sender}` })).json()) as {
        messages: StatusBody[];
      };
      expect(
        listed.messages
          .find((message) => message.id === id)!
          .recipients.map(({ address, name }) => ({ address, name })),
      ).to.deep.equal(status.recipients.map(({ address, name }) => ({ address, name })));
    });

    it('refuses an Idempotency-Key over 255 characters (400/9) or sent empty (400/8)', async () => {
      expect(
        (await expectError(await send(server, token, A_MAIL, { 'Idempotency-Key': 'k'.repeat(256) }), 400, 9)).details,
      ).to.include('idempotency-key');
      await expectError(await send(server, token, A_MAIL, { 'Idempotency-Key': ' ' }), 400, 8);
      expect(
        await accepted(
          await send(server, token, A_MAIL, {
            'Idempotency-Key': `${'k'.repeat(250)}${Date.now() % 100_000}`.slice(0, 255),
          }),
        ),
      ).to.have.property('id');
    });

    it('shows a message to its sender and to Mail::Read holders; to anyone else it does not exist (404/22)', async () => {
      const { id } = await accepted(await send(server, token, A_MAIL));
      expect((await statusOf(server, token, id)).status).to.equal(200);
      expect((await statusOf(server, await server.tokenFor(['Mail::Read']), id)).status).to.equal(200);
      await expectError(await statusOf(server, await server.tokenFor(['Mail::Send']), id), 404, 22);
      await expectError(await statusOf(server, token, '00000000-0000-4000-8000-000000000000'), 404, 22);
      await expectError(await statusOf(server, await server.tokenFor(['Cryptography::Encrypt']), id), 403, 1);
      await expectError(await statusOf(server, token, 'not-an-id'), 400, 7);
      await expectError(await server.get('/api/mail/status', { Authorization: `Bearer ${token}` }), 400, 6);
    });

    it("lists a sender's own messages newest first, page by page; everyone's to Mail::Read holders", async () => {
      const sender = await server.tokenFor(['Mail::Send']);
      const sent: string[] = [];
      for (const subject of ['first', 'second', 'third'])
        sent.unshift((await accepted(await send(server, sender, { ...A_MAIL, subject }))).id);
      const othersId = (await accepted(await send(server, token, A_MAIL))).id;
      const list = async (who: string, query: string) => {
        const response = await server.get(`/api/mail/list${query}`, { Authorization: `Bearer ${who}` });
        expect(response.status, await response.clone().text()).to.equal(200);
        return (await response.json()) as { messages: StatusBody[]; nextCursor: string | null };
      };

      // Newest first; messages of one millisecond in the order of their ids, which a test cannot choose.
      const all = (await list(sender, '')).messages;
      expect(all.map(({ id }) => id)).to.have.members(sent);
      const times = all.map(({ createdAt }) => Date.parse(createdAt));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      expect(Object.keys(all[0]!)).to.deep.equal(
        Object.keys((await (await statusOf(server, sender, sent[0]!)).json()) as object),
      );

      const first = await list(sender, '?limit=2');
      expect(first.nextCursor).to.be.a('string');
      const second = await list(sender, `?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
      expect(second.nextCursor).to.equal(null);
      expect([...first.messages, ...second.messages].map(({ id }) => id)).to.deep.equal(all.map(({ id }) => id));
      for (const id of sent) await eventually(server, sender, id, 'sent');
      expect((await list(sender, '?status=sent')).messages.map(({ id }) => id)).to.have.members(sent);
      expect((await list(sender, '?status=queued')).messages).to.deep.equal([]);

      const everyone = (await list(await server.tokenFor(['Mail::Read']), '?limit=100')).messages.map(({ id }) => id);
      expect(everyone).to.include.members([othersId, ...sent]);
      expect((await list(await server.tokenFor(['Mail::Send']), '')).messages).to.deep.equal([]);

      const asked = (query: string, who = sender) =>
        server.get(`/api/mail/list${query}`, { Authorization: `Bearer ${who}` });
      await expectError(await asked('?cursor=forged'), 400, 7);
      await expectError(await asked('?limit=0'), 400, 7);
      await expectError(await asked('?limit=101'), 400, 7);
      await expectError(await asked('?status=bounced'), 400, 7);
      await expectError(await asked('', await server.tokenFor(['Cryptography::Encrypt'])), 403, 1);
      await expectError(await server.get('/api/mail/list'), 401, 3);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: mail delivered to a real SMTP server (${database.name})`, () => {
    const running = deliveringServer(database, { env: { UTILITY_API_MAIL_FROM: 'noreply@example.com' } });

    it('delivers what was asked: recipients, subject, both parts, Message-ID, sender, variables filled', async () => {
      const body = await accepted(
        await send(running.server, running.token, {
          to: ['ada@example.com', 'grace@bücher.example'],
          cc: 'team@example.com',
          bcc: ['audit@example.com'],
          replyTo: 'help@example.com',
          fromName: 'Zoë at Support',
          subject: 'Your order {{order}} — ☕',
          content: '# Hello {{name}}\n\nYour code is **{{code}}**.\n\n<script>alert(1)</script>',
          name: 'Ada <Lovelace>',
          order: 42,
          code: 'A&B',
        }),
      );
      expect((await eventually(running.server, running.token, body.id, 'sent')).attempts).to.equal(1);
      const arrived = running.smtp.received.find((mail) => mail.parsed.messageId === body.messageId)!;
      expect(arrived, 'the message at the SMTP server').to.not.equal(undefined);
      const { parsed, envelope } = arrived;
      expect(envelope.from).to.equal('noreply@example.com');
      // smtp-server and mailparser give internationalised domains, sent in ASCII, back in Unicode.
      expect(envelope.to).to.have.members([
        'ada@example.com',
        'grace@bücher.example',
        'team@example.com',
        'audit@example.com',
      ]);
      expect(addressesOf(parsed.to)).to.deep.equal(['ada@example.com', 'grace@bücher.example']);
      expect(addressesOf(parsed.cc)).to.deep.equal(['team@example.com']);
      expect(parsed.bcc, 'no Bcc header').to.equal(undefined);
      expect(addressesOf(parsed.replyTo)).to.deep.equal(['help@example.com']);
      expect(parsed.from!.value).to.deep.equal([{ address: 'noreply@example.com', name: 'Zoë at Support' }]);
      expect(parsed.subject).to.equal('Your order 42 — ☕');
      expect(parsed.text).to.equal('# Hello Ada <Lovelace>\n\nYour code is **A&B**.\n\n<script>alert(1)</script>');
      expect(parsed.html).to.equal(
        '<h1>Hello Ada &lt;Lovelace&gt;</h1>\n<p>Your code is <strong>A&amp;B</strong>.</p>\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n',
      );
    });

    it('writes the display names in the headers, encoded beyond ASCII, the envelope holding the addresses alone', async () => {
      const body = await accepted(
        await send(running.server, running.token, {
          ...A_MAIL,
          to: ['"Ada Lovelace" <ada@example.com>', { name: 'Zoë – 中文', address: 'zoe@bücher.example' }],
          cc: ['"Team \\"Core\\", Ops" <team@example.com>', 'plain@example.com'],
          bcc: 'Audit <audit@example.com>',
          replyTo: 'Help Desk <help@example.com>',
        }),
      );
      await eventually(running.server, running.token, body.id, 'sent');
      const { parsed, envelope } = running.smtp.received.find((mail) => mail.parsed.messageId === body.messageId)!;
      expect(envelope.to).to.have.members([
        'ada@example.com',
        'zoe@bücher.example',
        'team@example.com',
        'plain@example.com',
        'audit@example.com',
      ]);
      const named = (field: AddressObject | AddressObject[] | undefined) =>
        [field ?? []].flat().flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));
      expect(named(parsed.to)).to.deep.equal([
        { name: 'Ada Lovelace', address: 'ada@example.com' },
        { name: 'Zoë – 中文', address: 'zoe@bücher.example' },
      ]);
      expect(named(parsed.cc)).to.deep.equal([
        { name: 'Team "Core", Ops', address: 'team@example.com' },
        { name: '', address: 'plain@example.com' },
      ]);
      expect(named(parsed.replyTo)).to.deep.equal([{ name: 'Help Desk', address: 'help@example.com' }]);
      expect(parsed.bcc, 'no Bcc header').to.equal(undefined);
      // Headers are ASCII on the wire: a name beyond it is an encoded word (RFC 2047), the domain in its ASCII form.
      const toLine = parsed.headerLines.find(({ key }) => key === 'to')!.line;
      expect(toLine).to.match(/^[\x20-\x7e\r\n\t]*$/);
      expect(toLine).to.include('=?UTF-8?');
      expect(toLine).to.include('xn--bcher-kva.example');
      const status = (await (await statusOf(running.server, running.token, body.id)).json()) as StatusBody;
      expect(status.recipients.map(({ name }) => name)).to.deep.equal([
        'Ada Lovelace',
        'Zoë – 中文',
        'Team "Core", Ops',
        null,
        'Audit',
      ]);
    });

    it('delivers attachments byte for byte, up to mail.maxAttachmentBytes (5 MB) in a body of 6.7 MB', async () => {
      const big = Buffer.alloc(5 * 1024 * 1024);
      for (let i = 0; i < big.length; i += 1) big[i] = (i * 7919) % 251;
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255]);
      const half = big.subarray(0, big.length - png.length);
      const body = await accepted(
        await send(running.server, running.token, {
          ...A_MAIL,
          attachments: [
            { filename: 'Rechnung März.pdf', contentType: 'application/pdf', content: half.toString('base64') },
            { filename: 'pixel.png', contentType: 'image/png', content: png.toString('base64') },
          ],
        }),
      );
      await eventually(running.server, running.token, body.id, 'sent');
      const { parsed } = running.smtp.received.find((mail) => mail.parsed.messageId === body.messageId)!;
      expect(parsed.text).to.equal('Hi **there**');
      expect(
        parsed.attachments.map(({ filename, contentType, size }) => ({ filename, contentType, size })),
      ).to.deep.equal([
        { filename: 'Rechnung März.pdf', contentType: 'application/pdf', size: half.length },
        { filename: 'pixel.png', contentType: 'image/png', size: png.length },
      ]);
      expect(parsed.attachments[0]!.content.equals(half)).to.equal(true);
      expect(parsed.attachments[1]!.content.equals(png)).to.equal(true);
    });

    it('refuses attachments over 5 MB together (400/11), and a body beyond the route’s limit (400/11, never a 500)', async () => {
      const before = await storedCount(running.server);
      const file = (bytes: number) => ({
        filename: 'a.pdf',
        contentType: 'application/pdf',
        content: Buffer.alloc(bytes, 1).toString('base64'),
      });
      const over = await send(running.server, running.token, {
        ...A_MAIL,
        attachments: [file(4 * 1024 * 1024), file(1024 * 1024 + 1)],
      });
      expect((await expectError(over, 400, 11)).details).to.include(
        'attachments must be at most 5242880 bytes together, once decoded',
      );
      const limit = mailBodyBytes({ maxContentBytes: 262_144, maxAttachmentBytes: 5 * 1024 * 1024 });
      const huge = await send(running.server, running.token, {
        ...A_MAIL,
        attachments: [{ ...file(1), content: 'A'.repeat(limit) }],
      });
      expect((await expectError(huge, 400, 11)).details).to.equal(`the body must be at most ${limit} bytes`);
      expect(await storedCount(running.server)).to.equal(before);
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: mail when the SMTP server fails (${database.name})`, () => {
    const clock = new ManualClock(Date.now());
    const running = deliveringServer(database, { mail: { retryBaseMs: 60_000, retryMaxMs: 60_000 }, clock });

    /**
     * Sends another message and waits until it is delivered: the worker has since looked for what
     * is due, and would have claimed then anything that was (instead of sleeping on it).
     */
    const afterTheWorkerLooked = async (): Promise<void> => {
      const probe = await accepted(await send(running.server, running.token, { ...A_MAIL, subject: 'Probe' }));
      await eventually(running.server, running.token, probe.id, 'sent');
    };

    it('sends on the second attempt after a 451, once the back-off has passed', async () => {
      running.smtp.script.push({ code: 451, message: '4.3.0 Greylisted, try again later' });
      const { id, messageId } = await accepted(await send(running.server, running.token, A_MAIL));
      const deadline = Date.now() + 10_000;
      let status: StatusBody;
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await (await statusOf(running.server, running.token, id)).json()) as StatusBody;
      } while (status.attempts === 0 && Date.now() < deadline);
      expect(status).to.deep.include({
        status: 'queued',
        attempts: 1,
        lastError: '451 4.3.0 Greylisted, try again later',
      });
      // Equal jitter: between half the wait and the whole of it.
      expect(Date.parse(status.nextAttemptAt!) - clock.now()).to.be.within(30_000, 60_000);
      await afterTheWorkerLooked();
      // The greylisted attempt and the probe: nothing more before the back-off has passed.
      expect(running.smtp.attempts).to.equal(2);
      clock.advance(60_000);
      expect(await eventually(running.server, running.token, id, 'sent')).to.deep.include({
        attempts: 2,
        lastError: '451 4.3.0 Greylisted, try again later',
      });
      expect(running.smtp.messageIds().filter((each) => each === messageId)).to.have.length(1);
    });

    it('marks a message the server refuses for good (550) failed, with the reason, and sends nothing more', async () => {
      running.smtp.script.push({ code: 550, message: '5.1.1 No such user here' });
      const { id } = await accepted(await send(running.server, running.token, { ...A_MAIL, to: 'nobody@example.com' }));
      expect(await eventually(running.server, running.token, id, 'failed')).to.deep.include({
        attempts: 1,
        lastError: '550 5.1.1 No such user here',
        sentAt: null,
        nextAttemptAt: null,
      });
    });

    /** The recipients of each delivery of one message, as the server received them. */
    const envelopesOf = (messageId: string) =>
      running.smtp.received.filter((mail) => mail.parsed.messageId === messageId).map((mail) => mail.envelope.to);

    it('tries a recipient the server greylists (450) again once the back-off has passed, alone: the other gets the message once', async () => {
      running.smtp.recipientScript.set('grace@example.com', [
        { code: 450, message: '4.2.0 Greylisted, try again later' },
      ]);
      const { id, messageId } = await accepted(
        await send(running.server, running.token, { ...A_MAIL, to: ['ada@example.com', 'grace@example.com'] }),
      );
      const deadline = Date.now() + 10_000;
      let status: StatusBody;
      do {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await (await statusOf(running.server, running.token, id)).json()) as StatusBody;
      } while (status.attempts === 0 && Date.now() < deadline);
      expect(status).to.deep.include({
        status: 'queued',
        attempts: 1,
        lastError: 'grace@example.com: 450 4.2.0 Greylisted, try again later',
      });
      expect(status.recipients).to.deep.equal([
        { address: 'ada@example.com', name: null, status: 'delivered', lastError: null },
        {
          address: 'grace@example.com',
          name: null,
          status: 'pending',
          lastError: '450 4.2.0 Greylisted, try again later',
        },
      ]);
      expect(envelopesOf(messageId)).to.deep.equal([['ada@example.com']]);
      clock.advance(60_000);
      const sent = await eventually(running.server, running.token, id, 'sent');
      expect(sent).to.deep.include({
        attempts: 2,
        lastError: 'grace@example.com: 450 4.2.0 Greylisted, try again later',
      });
      expect(sent.recipients.map((recipient) => recipient.status)).to.deep.equal(['delivered', 'delivered']);
      expect(envelopesOf(messageId)).to.deep.equal([['ada@example.com'], ['grace@example.com']]);
    });

    it('records a recipient the server refuses for good (550): sent to the other, the refusal in the status', async () => {
      running.smtp.recipientScript.set('nobody@example.com', [{ code: 550, message: '5.1.1 No such user here' }]);
      const { id, messageId } = await accepted(
        await send(running.server, running.token, { ...A_MAIL, to: 'ada@example.com', bcc: 'nobody@example.com' }),
      );
      const sent = await eventually(running.server, running.token, id, 'sent');
      expect(sent).to.deep.include({
        attempts: 1,
        lastError: 'nobody@example.com: 550 5.1.1 No such user here',
        nextAttemptAt: null,
      });
      expect(sent.recipients).to.deep.equal([
        { address: 'ada@example.com', name: null, status: 'delivered', lastError: null },
        { address: 'nobody@example.com', name: null, status: 'refused', lastError: '550 5.1.1 No such user here' },
      ]);
      clock.advance(3_600_000);
      await afterTheWorkerLooked();
      expect(envelopesOf(messageId)).to.deep.equal([['ada@example.com']]);
    });

    it('delivers every message once after the server was down for a while', async () => {
      await running.smtp.down();
      const before = running.smtp.received.length;
      const messages = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          send(running.server, running.token, { ...A_MAIL, subject: `Down ${i}` }).then(accepted),
        ),
      );
      for (const { id } of messages) {
        const deadline = Date.now() + 10_000;
        while (
          ((await (await statusOf(running.server, running.token, id)).json()) as StatusBody).attempts === 0 &&
          Date.now() < deadline
        )
          await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (const { id } of messages)
        expect(((await (await statusOf(running.server, running.token, id)).json()) as StatusBody).lastError).to.match(
          /ECONNREFUSED/,
        );
      await running.smtp.up();
      clock.advance(60_000);
      for (const { id } of messages) await eventually(running.server, running.token, id, 'sent');
      expect(running.smtp.received.length - before).to.equal(messages.length);
      expect(
        running.smtp.messageIds().filter((each) => messages.some((message) => message.messageId === each)),
      ).to.have.members(messages.map((message) => message.messageId));
    });
  });
}

for (const database of sqlDatabases) {
  describe(`http: a user's mail quota, counted in recipients across instances (${database.name})`, () => {
    const MINUTE = 60_000;
    const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
    let first: TestServer;
    let second: TestServer;
    let drop: () => Promise<void>;
    before(async () => {
      const opened = await database.open();
      drop = opened.drop;
      // Two instances on one database: what one accepted counts on the other.
      const options = {
        env: opened.env,
        overrides: { mail: { ...QUICK_DELIVERY, maxRecipientsPerHour: 50, maxRecipientsPerDay: 120 } },
        clock,
      };
      first = await startServer(options);
      second = await startServer(options);
    });
    after(async () => {
      await first.close();
      await second.close();
      await drop();
    });

    const addresses = (count: number, prefix = 'r') =>
      Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com`);
    const senderCount = async (userId: string) =>
      expectRight(await first.app.useCases.mail.messageReader.list(OPERATOR, { limit: 1000 })).filter(
        (message) => message.senderUserId === userId,
      ).length;

    it('answers 429 code 25 with Retry-After once a user’s recipients of the hour or the day would pass the limit, storing nothing; counts each user alone', async () => {
      const { secret: token, userId } = await first.userWithToken(['Mail::Send']);
      await accepted(await send(first, token, { ...A_MAIL, to: addresses(20), cc: addresses(10, 'c') }));
      clock.advance(10 * MINUTE);
      const key = { 'Idempotency-Key': 'quota-second' };
      const second20 = await accepted(
        await send(second, token, { ...A_MAIL, to: addresses(19), bcc: 'audit@example.com' }, key),
      );

      // 50 of 50 this hour: one more recipient is refused, until the first message's 30 have left the hour.
      clock.advance(10 * MINUTE);
      const refused = await send(second, token, { ...A_MAIL, to: 'one@example.com' });
      const body = await expectError(refused, 429, 25);
      expect(body.message).to.equal('Mail quota exceeded, try again later');
      expect(body.details).to.equal(
        "A user's messages may have at most 50 recipients in an hour; this one's 1 would pass that. Try again in 2400 s",
      );
      expect(refused.headers.get('retry-after')).to.equal('2400');
      await expectError(await send(first, token, { ...A_MAIL, to: 'one@example.com' }), 429, 25);
      expect(await senderCount(userId)).to.equal(2);
      // A replay stores nothing, so it is answered as before; another user has a quota of their own.
      const replay = await send(second, token, { ...A_MAIL, to: addresses(19), bcc: 'audit@example.com' }, key);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(await accepted(replay)).to.deep.equal(second20);
      await accepted(await send(first, await first.tokenFor(['Mail::Send']), { ...A_MAIL, to: addresses(50) }));

      clock.advance(40 * MINUTE);
      await accepted(await send(second, token, { ...A_MAIL, to: 'one@example.com' }));
      // 51 today; two more hours of 50 would make 151 of the day's 120: room once the first two messages have left the day.
      clock.advance(60 * MINUTE);
      await accepted(await send(first, token, { ...A_MAIL, to: addresses(50) }));
      clock.advance(60 * MINUTE);
      const daily = await send(first, token, { ...A_MAIL, to: addresses(50) });
      expect((await expectError(daily, 429, 25)).details).to.equal(
        "A user's messages may have at most 120 recipients in a day; this one's 50 would pass that. Try again in 76200 s",
      );
      expect(daily.headers.get('retry-after')).to.equal(String((24 * 60 + 10 - 180) * 60));
      expect(await senderCount(userId)).to.equal(4);
    });
  });
}
