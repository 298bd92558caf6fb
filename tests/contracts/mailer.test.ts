import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { EmlFileMailer } from '../../src/families/mail/adapters/eml-file-mailer.js';
import { MemoryMailer } from '../../src/families/mail/adapters/memory-mailer.js';
import { SmtpMailer } from '../../src/families/mail/adapters/smtp-mailer.js';
import type { Mailer, RenderedMessage } from '../../src/families/mail/domain/ports.js';
import { envelopeOf } from '../../src/families/mail/domain/recipients.js';
import { addressOf, type Mailbox } from '../../src/families/mail/domain/mailboxes.js';
import type { Attachment } from '../../src/families/mail/domain/attachments.js';
import { startSmtpFixture, type SmtpFixture } from '../support/smtp-fixture.js';

/** What a recipient's mail program shows of a message (of Bcc, the addresses alone: SMTP carries no more of them). */
interface Arrived {
  readonly from: { readonly name: string; readonly address: string };
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly string[];
  readonly replyTo: readonly Mailbox[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments: readonly Attachment[];
  readonly messageId: string;
  readonly date: number;
}

const addressesOf = (field: AddressObject | AddressObject[] | undefined): string[] =>
  [field ?? []].flat().flatMap((object) => object.value.map((each) => each.address ?? ''));
/** Each address of a header with its display name, as a message names it: the address alone when it has none. */
const mailboxesOf = (field: AddressObject | AddressObject[] | undefined): Mailbox[] =>
  [field ?? []]
    .flat()
    .flatMap((object) =>
      object.value.map((each) => (each.name === '' ? each.address! : { name: each.name, address: each.address! })),
    );

function arrivedFrom(parsed: ParsedMail, bcc: readonly string[]): Arrived {
  const from = parsed.from!.value[0]!;
  return {
    from: { name: from.name, address: from.address! },
    to: mailboxesOf(parsed.to),
    cc: mailboxesOf(parsed.cc),
    bcc,
    replyTo: mailboxesOf(parsed.replyTo),
    subject: parsed.subject!,
    text: parsed.text!,
    html: parsed.html === false ? '' : parsed.html!,
    attachments: parsed.attachments.map(({ filename, contentType, content }) => ({
      filename: filename!,
      contentType,
      content,
    })),
    messageId: parsed.messageId!,
    date: parsed.date!.getTime(),
  };
}

interface OpenedMailer {
  readonly mailer: Mailer;
  /** Every message that arrived where the mailer delivers, as a mail program reads it. */
  arrived(): Promise<Arrived[]>;
  close(): Promise<void>;
}

const adapters: { name: string; open: () => Promise<OpenedMailer> }[] = [
  {
    name: 'memory',
    open: async () => {
      const mailer = new MemoryMailer();
      return {
        mailer,
        arrived: async () => mailer.delivered.map(asArrived),
        close: () => mailer.close(),
      };
    },
  },
  {
    name: '.eml files',
    open: async () => {
      const folder = mkdtempSync(join(tmpdir(), 'utility-api-eml-'));
      const mailer = new EmlFileMailer(join(folder, 'mail'));
      return {
        mailer,
        arrived: async () => {
          const files = existsSync(join(folder, 'mail')) ? readdirSync(join(folder, 'mail')) : [];
          return Promise.all(
            files.map(async (file) => {
              const parsed = await simpleParser(readFileSync(join(folder, 'mail', file)));
              return arrivedFrom(parsed, addressesOf(parsed.bcc));
            }),
          );
        },
        close: async () => {
          await mailer.close();
          rmSync(folder, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'SMTP',
    open: async () => {
      const server = await startSmtpFixture();
      const mailer = new SmtpMailer({ url: server.url, connections: 2, timeoutMs: 2000 });
      return {
        mailer,
        arrived: async () =>
          server.received.map(({ envelope, parsed }) => {
            // Bcc is in the envelope only: the message itself never names them.
            const shown = new Set([...addressesOf(parsed.to), ...addressesOf(parsed.cc)]);
            return arrivedFrom(
              parsed,
              envelope.to.filter((recipient) => !shown.has(recipient)),
            );
          }),
        close: async () => {
          await mailer.close();
          await server.close();
        },
      };
    },
  },
];

/** A message with everything a message may have, in several scripts; to every recipient unless `envelopeTo` says otherwise. */
const aMessage = (overrides: Partial<RenderedMessage> = {}): RenderedMessage => {
  const message = {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    messageId: '<7c9e6679-7425-40de-944b-e07fc1f90ae7@example.com>',
    from: { address: 'noreply@example.com', name: 'Zoë from Support' },
    // Names plain, with specials that need quoting, and beyond ASCII, which need encoding.
    to: [{ name: 'Ada Lovelace', address: 'ada@example.com' }, 'grace@example.org'],
    cc: [{ name: 'Team "Core", Ops', address: 'team@example.com' }],
    bcc: [{ name: 'Audit', address: 'audit@example.com' }],
    replyTo: [{ name: 'Zoë – 中文 Support', address: 'help@example.com' }],
    subject: 'Your code, Ada — 42 ☕ 中文',
    text: '# Hello Ada\n\nYour code is **42**.\n\n<b>not bold</b>\n',
    html: '<h1>Hello Ada</h1>\n<p>Your code is <strong>42</strong>.</p>\n<p>&lt;b&gt;not bold&lt;/b&gt;</p>\n',
    attachments: [
      { filename: 'invoice 42.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4\n%âãÏÓ\n') },
      { filename: 'Übersicht.csv', contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') },
      {
        filename: 'pixel.png',
        contentType: 'image/png',
        content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13]),
      },
    ],
    date: Date.UTC(2026, 4, 1, 12, 30, 0),
    ...overrides,
  };
  return { envelopeTo: envelopeOf(message), ...message };
};

const asArrived = ({ id: _id, envelopeTo: _envelope, from, bcc, attachments, ...rest }: RenderedMessage): Arrived => ({
  ...rest,
  from: { name: from.name ?? '', address: from.address },
  bcc: bcc.map(addressOf),
  attachments: attachments.map(({ filename, contentType, content }) => ({
    filename,
    contentType,
    content: Buffer.from(content),
  })),
});

for (const adapter of adapters) {
  describe(`contract: Mailer (${adapter.name})`, () => {
    let opened: OpenedMailer;
    beforeEach(async () => (opened = await adapter.open()));
    afterEach(async () => opened.close());

    it('delivers what it is given: addresses with their display names, subject, both parts, attachments byte for byte, Message-ID and date', async () => {
      const message = aMessage();
      expect(await opened.mailer.send(message)).to.deep.equal({ kind: 'accepted' });
      expect(await opened.arrived()).to.deep.equal([asArrived(message)]);
    });

    it('sends from the bare address when there is no display name, to one recipient alone, with no attachment', async () => {
      const message = aMessage({
        from: { address: 'noreply@example.com', name: null },
        to: ['ada@example.com'],
        cc: [],
        bcc: [],
        replyTo: [],
        attachments: [],
      });
      expect(await opened.mailer.send(message)).to.deep.equal({ kind: 'accepted' });
      expect(await opened.arrived()).to.deep.equal([asArrived(message)]);
    });
  });
}

describe('SMTP mailer: what each answer of the server comes to', () => {
  let server: SmtpFixture;
  let mailer: SmtpMailer;
  beforeEach(async () => {
    server = await startSmtpFixture();
    mailer = new SmtpMailer({ url: server.url, connections: 1, timeoutMs: 300 });
  });
  afterEach(async () => {
    await mailer.close();
    await server.close();
  });

  it('tries again after a temporary refusal (4xx), with the server’s words', async () => {
    server.script.push({ code: 451, message: '4.3.0 Try again later' });
    expect(await mailer.send(aMessage())).to.deep.equal({ kind: 'retry', reason: '451 4.3.0 Try again later' });
    expect(await mailer.send(aMessage())).to.deep.equal({ kind: 'accepted' });
  });

  it('gives up on a permanent refusal (5xx)', async () => {
    server.script.push({ code: 550, message: '5.1.1 No such user' });
    expect(await mailer.send(aMessage())).to.deep.equal({ kind: 'refused', reason: '550 5.1.1 No such user' });
  });

  it('says which recipients the server refused at RCPT TO, for now (4xx) or for good (5xx), when it took the message for the others', async () => {
    server.recipientScript.set('grace@example.org', [{ code: 450, message: '4.2.0 Greylisted, come back later' }]);
    server.recipientScript.set('audit@example.com', [{ code: 550, message: '5.1.1 No such mailbox' }]);
    expect(await mailer.send(aMessage())).to.deep.equal({
      kind: 'accepted',
      refusals: [
        { address: 'grace@example.org', temporary: true, reason: '450 4.2.0 Greylisted, come back later' },
        { address: 'audit@example.com', temporary: false, reason: '550 5.1.1 No such mailbox' },
      ],
    });
    expect(server.received.map((mail) => mail.envelope.to)).to.deep.equal([['ada@example.com', 'team@example.com']]);
  });

  it('sends to the envelope’s recipients only, naming everyone in the headers', async () => {
    expect(await mailer.send(aMessage({ envelopeTo: ['grace@example.org'] }))).to.deep.equal({ kind: 'accepted' });
    const [arrived] = server.received;
    expect(arrived!.envelope.to).to.deep.equal(['grace@example.org']);
    expect(addressesOf(arrived!.parsed.to)).to.deep.equal(['ada@example.com', 'grace@example.org']);
  });

  it('says of each recipient what the server said when it refused them all, the attempt’s outcome by the temporary refusal if any', async () => {
    const message = aMessage({ to: ['ada@example.com', 'grace@bücher.example'], cc: [], bcc: [] });
    server.recipientScript.set('ada@example.com', [{ code: 550, message: '5.1.1 No such mailbox' }]);
    // smtp-server reads an internationalised domain, sent in ASCII, back in Unicode.
    server.recipientScript.set('grace@bücher.example', [{ code: 451, message: '4.7.1 Try later' }]);
    expect(await mailer.send(message)).to.deep.equal({
      kind: 'retry',
      reason: '451 4.7.1 Try later',
      refusals: [
        { address: 'ada@example.com', temporary: false, reason: '550 5.1.1 No such mailbox' },
        { address: 'grace@bücher.example', temporary: true, reason: '451 4.7.1 Try later' },
      ],
    });
    expect(server.received).to.deep.equal([]);
  });

  it('tries again when the server cannot be reached, or falls silent', async () => {
    await server.down();
    const down = await mailer.send(aMessage());
    expect(down.kind).to.equal('retry');
    expect(down.kind === 'retry' && down.reason).to.match(/ECONNREFUSED/);
    await server.up();
    server.delayMs = 1000;
    const silent = await mailer.send(aMessage());
    expect(silent.kind).to.equal('retry');
    expect(silent.kind === 'retry' && silent.reason).to.match(/timeout/i);
  });
});

describe('.eml mailer: a folder it cannot write to', () => {
  it('tries again rather than losing the message', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'utility-api-eml-'));
    try {
      // A file where the folder should be: no folder can be made there, even by root.
      writeFileSync(join(folder, 'mail'), '');
      const outcome = await new EmlFileMailer(join(folder, 'mail')).send(aMessage());
      expect(outcome.kind).to.equal('retry');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
