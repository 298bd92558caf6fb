import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryMailer } from '../../src/families/mail/adapters/memory-mailer.js';
import { MemoryMarkdownRenderer } from '../../src/families/mail/adapters/markdown/memory-markdown-renderer.js';
import { MemoryOutbox } from '../../src/families/mail/adapters/memory-outbox.js';
import { actorFor, OPERATOR, type Actor } from '../../src/domain/identity/actor.js';
import { isAddress } from '../../src/families/mail/domain/addresses.js';
import {
  DeliverMail,
  renderMessage,
  retryDelay,
  type DeliverySettings,
} from '../../src/families/mail/domain/deliver-mail.js';
import { MessageReader, RetryMessage } from '../../src/families/mail/domain/manage-mail.js';
import { checkMail, FROM_NAME_ADDRESS_RULE, type MailRequest } from '../../src/families/mail/domain/message.js';
import type { Outbox } from '../../src/families/mail/domain/ports.js';
import { roomAt } from '../../src/families/mail/domain/quota.js';
import { SendMail } from '../../src/families/mail/domain/send-mail.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';
import { aToken, aUser } from '../support/mothers.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

const LIMITS = { maxContentBytes: 1024, maxAttachmentBytes: 2048 };
const MAIL_SETTINGS = {
  from: 'noreply@example.com',
  maxContentBytes: 1024,
  maxAttachmentBytes: 2048,
  maxRecipientsPerHour: 500,
  maxRecipientsPerDay: 2000,
};
const request = (fields: Partial<MailRequest> = {}): MailRequest => ({
  to: 'ada@example.com',
  subject: 'Hello',
  content: 'Hi there',
  ...fields,
});

/** What checkMail refuses a request with: the tag, the fields and the reason. */
function refusal(fields: Partial<MailRequest>, limits = LIMITS) {
  const checked = checkMail(request(fields), limits);
  if (E.isRight(checked)) return expect.fail(`accepted ${JSON.stringify(fields)}`);
  return checked.left;
}

const holder = (permissions: string[], scopes = permissions): Actor => {
  const user = aUser({ permissions });
  return actorFor({ user, token: aToken(user.id, { scopes }), issuer: null });
};

describe('mail: addresses', () => {
  it('takes addr-specs, internationalised domains among them', () => {
    for (const address of [
      'ada@example.com',
      'a.b+tag@mail.example.co.uk',
      "o'brien@example.ie",
      'grace@bücher.example',
      'x@xn--bcher-kva.example',
      'root@localhost',
      'A_Z{}|~@EXAMPLE.COM',
    ]) {
      expect(isAddress(address), address).to.equal(true);
    }
  });

  it('refuses what is no addr-spec: display names, spaces, quotes, literals, bad domains, too long', () => {
    for (const address of [
      'Ada <ada@example.com>',
      ' ada@example.com',
      'ada@example.com ',
      'ada@@example.com',
      'ada',
      '@example.com',
      'ada@',
      '"ada lovelace"@example.com',
      'ada@[192.0.2.1]',
      'ada@192.0.2.1',
      'ada.@example.com',
      '.ada@example.com',
      'a..b@example.com',
      'ada@exa_mple.com',
      'ada@-example.com',
      'ada@example..com',
      'ada@example.com.',
      'ada@ex%41mple.com',
      'ada\r\n@example.com',
      'ada@example.com\r\nBcc: x@example.com',
      `${'a'.repeat(65)}@example.com`,
      `ada@${'a'.repeat(64)}.com`,
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
    ]) {
      expect(isAddress(address), JSON.stringify(address)).to.equal(false);
    }
  });
});

describe('mail: a request checked', () => {
  it('takes one address or a list, fills the subject, keeps the content as written', () => {
    const mail = expectRight(
      checkMail(
        request({
          to: ['ada@example.com', 'grace@example.com'],
          cc: 'team@example.com',
          subject: 'Hi {{ name }}, #{{n}}',
          content: 'Dear {{name}}',
          variables: { name: 'Ada', n: 7 },
        }),
        LIMITS,
      ),
    );
    expect(mail).to.deep.include({
      to: ['ada@example.com', 'grace@example.com'],
      cc: ['team@example.com'],
      bcc: [],
      replyTo: [],
      fromName: null,
      subject: 'Hi Ada, #7',
      subjectAsWritten: 'Hi {{ name }}, #{{n}}',
      content: 'Dear {{name}}',
    });
  });

  it('names every missing field (10), then the first rule broken (11)', () => {
    const missing = checkMail({}, LIMITS);
    expect(E.isLeft(missing) && missing.left).to.deep.equal({
      _tag: 'MissingInput',
      fields: ['to', 'subject', 'content'],
    });
    expect(refusal({ to: null })).to.deep.equal({ _tag: 'MissingInput', fields: ['to'] });
    expect(refusal({ to: [] })).to.deep.include({ _tag: 'InvalidInput', fields: ['to'] });
    expect(refusal({ to: ['ada@example.com', 'not an address'] })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['to'],
      reason:
        'to[1] must be an email address such as name@example.com, the same with a display name ("Ada Lovelace" <ada@example.com>), or {"name", "address"}',
    });
    expect(refusal({ cc: 42 })).to.deep.include({ fields: ['cc'] });
    expect(refusal({ bcc: ['ok@example.com', { adress: 'x@example.com' }] })).to.deep.include({ fields: ['bcc'] });
    expect(refusal({ replyTo: 'Help <help@example.com' })).to.deep.include({ fields: ['replyTo'] });
  });

  it('allows 50 recipients in to, cc and bcc together, no more', () => {
    const addresses = (n: number, domain: string) => Array.from({ length: n }, (_, i) => `r${i}@${domain}`);
    expectRight(
      checkMail(
        request({ to: addresses(20, 'a.example'), cc: addresses(20, 'b.example'), bcc: addresses(10, 'c.example') }),
        LIMITS,
      ),
    );
    expect(
      refusal({ to: addresses(20, 'a.example'), cc: addresses(20, 'b.example'), bcc: addresses(11, 'c.example') }),
    ).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['to', 'cc', 'bcc'],
      reason: 'at most 50 recipients in to, cc and bcc together, got 51',
    });
  });

  it('refuses line breaks and other control or invisible characters in the subject and the display name (header injection)', () => {
    for (const subject of [
      'Hi\r\nBcc: victim@example.com',
      'Hi\nthere',
      'tab\there',
      'null\u0000',
      'rtl\u202eoverride',
      'zero\u200bwidth',
    ]) {
      expect(refusal({ subject }), JSON.stringify(subject)).to.deep.include({
        _tag: 'InvalidInput',
        fields: ['subject'],
      });
    }
    expect(refusal({ fromName: 'Support\r\nBcc: victim@example.com' })).to.deep.include({ fields: ['fromName'] });
    expect(refusal({ fromName: '' })).to.deep.include({ fields: ['fromName'] });
    expect(refusal({ subject: '   ' })).to.deep.include({ fields: ['subject'] });
    expect(refusal({ subject: 'x'.repeat(999) })).to.deep.include({ fields: ['subject'] });
    expect(refusal({ subject: 'bad \ud800 surrogate' })).to.deep.include({ fields: ['subject'] });
  });

  it('refuses a display name that could pass for an address: an at sign, angle brackets, or their look-alikes', () => {
    for (const fromName of [
      'support@bank.com',
      'Bank <x@y>',
      'Bank <help>',
      'support\uff20bank.com',
      'Bank \uff1chelp\uff1e',
    ]) {
      expect(refusal({ fromName }), fromName).to.deep.include({ fields: ['fromName'], reason: FROM_NAME_ADDRESS_RULE });
    }
    expect(E.isRight(checkMail(request({ fromName: 'Zoë at Bank, Support & Billing' }), LIMITS))).to.equal(true);
  });

  it('bounds the content in UTF-8 bytes, as written and once filled in', () => {
    expectRight(checkMail(request({ content: 'é'.repeat(512) }), LIMITS));
    expect(refusal({ content: 'é'.repeat(513) })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['content'],
      reason: 'content must be at most 1024 bytes of UTF-8',
    });
    expect(refusal({ content: '{{big}}', variables: { big: 'x'.repeat(1025) } })).to.deep.include({
      _tag: 'InvalidInput',
      fields: ['content'],
    });
    expect(refusal({ content: ' \n ' })).to.deep.include({ fields: ['content'] });
    expect(refusal({ content: ['a'] })).to.deep.include({ fields: ['content'] });
  });

  it('takes variables that are strings or numbers, named by the rule, at most 50', () => {
    expect(refusal({ variables: { user: { name: 'Ada' } } })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['user'],
      reason: 'the variable user must be a string or a number',
    });
    expect(refusal({ variables: { list: [1, 2] } })).to.deep.include({ fields: ['list'] });
    expect(refusal({ variables: { flag: true } })).to.deep.include({ fields: ['flag'] });
    expect(refusal({ variables: { nothing: null } })).to.deep.include({ fields: ['nothing'] });
    expect(refusal({ variables: { 'first-name': 'Ada' } })).to.deep.include({ fields: ['first-name'] });
    expect(refusal({ variables: { __proto__x: 'Ada' } })).to.deep.include({ fields: ['__proto__x'] });
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, i]));
    const usingAll = (variables: Record<string, number>) =>
      Object.keys(variables)
        .map((name) => `{{${name}}}`)
        .join(' ');
    expectRight(checkMail(request({ content: usingAll(fifty), variables: fifty }), LIMITS));
    expect(refusal({ content: usingAll({ ...fifty, v50: 50 }), variables: { ...fifty, v50: 50 } })).to.deep.include({
      fields: ['v50'],
    });
    // One that neither subject nor content uses would be dropped: refused by name instead.
    expect(refusal({ variables: { unused: 1 } })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['unused'],
      reason: 'unused is neither a field nor a variable that subject or content uses as {{unused}}',
    });
  });

  it('refuses the old API’s text, html and url, naming them', () => {
    for (const old of ['text', 'html', 'url']) {
      const refused = refusal({ variables: { [old]: 'x' } });
      expect(refused).to.deep.include({ _tag: 'InvalidInput', fields: [old] });
      expect((refused as { reason: string }).reason).to.include(`${old} is no longer taken`);
    }
  });

  it('refuses a {{name}} without a value, naming it; leaves what is no placeholder as written', () => {
    expect(refusal({ content: 'Dear {{name}}' })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['name'],
      reason: 'content uses {{name}}, which the request gives no value for',
    });
    expect(refusal({ subject: 'Hi {{who}}', variables: { name: 'Ada' } })).to.deep.include({ fields: ['who'] });
    const mail = expectRight(
      checkMail(request({ subject: '{{ not-a-name }} {x} {{}}', content: '{{ 1st }}' }), LIMITS),
    );
    expect(mail.subject).to.equal('{{ not-a-name }} {x} {{}}');
  });

  it('refuses a variable that would put a line break into the subject, naming it; in the content anything goes', () => {
    expect(refusal({ subject: 'Hi {{name}}', variables: { name: 'Ada\r\nBcc: victim@example.com' } })).to.deep.include({
      _tag: 'InvalidInput',
      fields: ['name'],
    });
    expectRight(checkMail(request({ content: 'Hi {{name}}', variables: { name: 'Ada\r\nLovelace' } }), LIMITS));
  });

  it('keeps variables named like Object.prototype members as variables', () => {
    const mail = expectRight(
      checkMail(
        request({ content: '{{constructor}} {{toString}}', variables: { constructor: 'a', toString: 'b' } }),
        LIMITS,
      ),
    );
    expect(mail.variables).to.deep.equal({ constructor: 'a', toString: 'b' });
  });
});

describe('mail: display names', () => {
  const checked = (to: unknown) => expectRight(checkMail(request({ to }), LIMITS)).to;

  it('takes a name-addr, quoted or of plain words, and {name, address}, keeping the name as given', () => {
    expect(
      checked([
        '"Bob Example" <bob@example.com>',
        'Bob Example <bob@example.com>',
        'John Q. Public<john@example.com>',
        '"Smith, John \\"JJ\\" \\\\ Jr" <john@example.com>',
        'Zoë Ångström <zoe@bücher.example>',
        '"中文 名字" <li@example.com>',
        { name: 'Ada <the Countess>', address: 'ada@example.com' },
        { address: 'grace@example.com' },
        { name: null, address: 'grace@example.com' },
        '<plain@example.com>',
        'plain@example.com',
      ]),
    ).to.deep.equal([
      { name: 'Bob Example', address: 'bob@example.com' },
      { name: 'Bob Example', address: 'bob@example.com' },
      { name: 'John Q. Public', address: 'john@example.com' },
      { name: 'Smith, John "JJ" \\ Jr', address: 'john@example.com' },
      { name: 'Zoë Ångström', address: 'zoe@bücher.example' },
      { name: '中文 名字', address: 'li@example.com' },
      { name: 'Ada <the Countess>', address: 'ada@example.com' },
      'grace@example.com',
      'grace@example.com',
      'plain@example.com',
      'plain@example.com',
    ]);
    const mail = expectRight(
      checkMail(
        request({
          cc: 'Team <team@example.com>',
          bcc: { name: 'Audit', address: 'a@example.com' },
          replyTo: '"Help" <h@example.com>',
        }),
        LIMITS,
      ),
    );
    expect(mail).to.deep.include({
      cc: [{ name: 'Team', address: 'team@example.com' }],
      bcc: [{ name: 'Audit', address: 'a@example.com' }],
      replyTo: [{ name: 'Help', address: 'h@example.com' }],
    });
  });

  it('refuses a malformed form with code 11 and the field, never mending it', () => {
    const refused = [
      '"Bob Example <bob@example.com>',
      'Bob Example" <bob@example.com>',
      '"Bob" "Example" <bob@example.com>',
      'Bob <bob@example.com',
      'Bob bob@example.com>',
      'Bob <<bob@example.com>>',
      'Bob <bob@example.com> trailing',
      'Smith, John <john@example.com>',
      'Bob (work) <bob@example.com>',
      'Bob <not an address>',
      '"" <bob@example.com>',
      '"   " <bob@example.com>',
      `"${'n'.repeat(201)}" <bob@example.com>`,
      '"Bob\r\nBcc: victim@example.com" <bob@example.com>',
      '"Bob\u202Egpj" <bob@example.com>',
      '"Bob\u2028" <bob@example.com>',
      'Bob\tExample <bob@example.com>',
      ' bob@example.com',
      { name: 'Bob' },
      { name: 'Bob', address: 'bob@example.com', extra: 1 },
      { name: 42, address: 'bob@example.com' },
      { name: '', address: 'bob@example.com' },
      { name: 'Bob\nBcc: x@example.com', address: 'bob@example.com' },
      { name: 'n'.repeat(201), address: 'bob@example.com' },
      42,
      ['bob@example.com'],
    ];
    for (const to of refused)
      expect(refusal({ to: ['ok@example.com', to] }), JSON.stringify(to)).to.deep.include({
        _tag: 'InvalidInput',
        fields: ['to'],
      });
    expect(refusal({ to: 'Bob <bob@example.com' })).to.deep.include({
      reason:
        'to must be an email address such as name@example.com, the same with a display name ("Ada Lovelace" <ada@example.com>), or {"name", "address"}',
    });
    expect(refusal({ cc: [{ name: 'n'.repeat(201), address: 'bob@example.com' }] })).to.deep.include({
      fields: ['cc'],
      reason: 'cc[0] has a display name of more than 200 characters',
    });
    expect(refusal({ replyTo: { name: 'Bob', address: 'bob' } })).to.deep.include({
      fields: ['replyTo'],
      reason: 'replyTo.address must be an email address such as name@example.com',
    });
    // 200 characters, counted as a person counts them (an emoji is one).
    expectRight(checkMail(request({ to: { name: '☕'.repeat(200), address: 'bob@example.com' } }), LIMITS));
  });

  it('shows each recipient’s name in its status, the first a message gives its address', async () => {
    const outbox = new MemoryOutbox();
    const sendMail = new SendMail(outbox, new ManualClock(), new SeededRandomness('names'), MAIL_SETTINGS);
    const { id } = expectRight(
      await sendMail.execute({
        actor: OPERATOR,
        mail: request({ to: ['"Ada L." <ada@example.com>', 'grace@example.com'], cc: 'Ada <ada@example.com>' }),
      }),
    );
    const status = expectRight(await new MessageReader(outbox).status(OPERATOR, id));
    expect(status.to).to.deep.equal(['ada@example.com', 'grace@example.com']);
    expect(status.recipients).to.deep.equal([
      { address: 'ada@example.com', name: 'Ada L.', status: 'pending', lastError: null },
      { address: 'grace@example.com', name: null, status: 'pending', lastError: null },
    ]);
  });
});

describe('mail: attachments', () => {
  const pdf = {
    filename: 'invoice.pdf',
    contentType: 'application/pdf',
    content: Buffer.from('%PDF-1.4').toString('base64'),
  };

  it('takes files of the allowed types as canonical base64, decoded, in order', () => {
    const mail = expectRight(
      checkMail(
        request({
          attachments: [
            pdf,
            { filename: 'Übersicht 2026.csv', contentType: 'text/csv', content: 'YSxiCjEsMgo=' },
            { filename: 'empty.txt', contentType: 'text/plain', content: '' },
          ],
        }),
        LIMITS,
      ),
    );
    expect(mail.attachments).to.deep.equal([
      { filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4') },
      { filename: 'Übersicht 2026.csv', contentType: 'text/csv', content: Buffer.from('a,b\n1,2\n') },
      { filename: 'empty.txt', contentType: 'text/plain', content: Buffer.alloc(0) },
    ]);
    expect(expectRight(checkMail(request(), LIMITS)).attachments).to.deep.equal([]);
    expect(expectRight(checkMail(request({ attachments: null }), LIMITS)).attachments).to.deep.equal([]);
  });

  it('refuses what is not canonical base64 rather than decoding it', () => {
    for (const content of ['YQ', 'YQ=', 'YR==', 'YQ==\n', 'Y Q==', 'YQ==YQ==', '-_8=', 'YWJj ', '====', 42, null])
      expect(refusal({ attachments: [{ ...pdf, content }] }), JSON.stringify(content)).to.deep.include({
        _tag: 'InvalidInput',
        fields: ['attachments'],
      });
    expect(refusal({ attachments: [pdf, { ...pdf, content: 'YR==' }] })).to.deep.include({
      reason:
        'attachments[1].content must be the file in base64 (RFC 4648: A–Z, a–z, 0–9, + and /, padded with =, no line breaks)',
    });
  });

  it('refuses a type off the list, a filename with a path, control characters or too long, and any other field', () => {
    const refusedAs = (attachment: Record<string, unknown>) => refusal({ attachments: [attachment] });
    for (const contentType of [
      'text/html',
      'application/octet-stream',
      'application/x-msdownload',
      'text/plain; charset=utf-8',
      'PDF',
      '',
    ])
      expect(refusedAs({ ...pdf, contentType }), contentType).to.deep.include({ fields: ['attachments'] });
    for (const filename of [
      '../etc/passwd',
      'a/b.pdf',
      'C:\\x.pdf',
      '',
      '  ',
      '.',
      '..',
      'a\nb.pdf',
      'a\u0000.pdf',
      'evil\u202Efdp.exe',
      'n'.repeat(256),
      7,
    ])
      expect(refusedAs({ ...pdf, filename }), JSON.stringify(filename)).to.deep.include({ fields: ['attachments'] });
    expect(refusedAs({ ...pdf, filename: '../x.pdf' })).to.deep.include({
      reason: 'attachments[0].filename must be a name alone, without / or \\',
    });
    expect(refusedAs({ ...pdf, disposition: 'inline' })).to.deep.include({
      reason: 'attachments[0] takes only filename, contentType and content, not "disposition"',
    });
    expect(refusedAs({ filename: 'a.pdf', contentType: 'application/pdf' })).to.deep.include({
      fields: ['attachments'],
    });
    expect(refusal({ attachments: pdf })).to.deep.include({ fields: ['attachments'] });
    expect(refusal({ attachments: ['a.pdf'] })).to.deep.include({ fields: ['attachments'] });
    expect(refusal({ attachments: Array.from({ length: 11 }, () => pdf) })).to.deep.include({
      reason: 'at most 10 attachments, got 11',
    });
    expectRight(checkMail(request({ attachments: [{ ...pdf, filename: 'n'.repeat(255) }] }), LIMITS));
  });

  it('takes at most maxAttachmentBytes together, decoded', () => {
    const ofBytes = (bytes: number) => ({ ...pdf, content: Buffer.alloc(bytes, 7).toString('base64') });
    expectRight(checkMail(request({ attachments: [ofBytes(1024), ofBytes(1024)] }), LIMITS));
    expect(refusal({ attachments: [ofBytes(1024), ofBytes(1025)] })).to.deep.equal({
      _tag: 'InvalidInput',
      fields: ['attachments'],
      reason: 'attachments must be at most 2048 bytes together, once decoded',
    });
  });

  it('stores them with the message; the same key answers the same files again, and other files with a conflict', async () => {
    const outbox = new MemoryOutbox();
    const sendMail = new SendMail(outbox, new ManualClock(), new SeededRandomness('files'), MAIL_SETTINGS);
    const sender = holder(['Mail::Send']);
    const withFiles = (attachments: unknown[]) => request({ attachments });
    const first = expectRight(await sendMail.execute({ actor: sender, mail: withFiles([pdf]), idempotencyKey: 'f' }));
    expect(await outbox.attachments(first.id)).to.deep.equal([
      { filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4') },
    ]);
    expect(
      expectRight(await sendMail.execute({ actor: sender, mail: withFiles([{ ...pdf }]), idempotencyKey: 'f' })),
    ).to.deep.equal({ ...first, replayed: true });
    for (const other of [[], [{ ...pdf, content: 'YQ==' }], [{ ...pdf, filename: 'other.pdf' }], [pdf, pdf]])
      expectLeftTag(
        await sendMail.execute({ actor: sender, mail: withFiles(other), idempotencyKey: 'f' }),
        'IdempotencyKeyReused',
      );
    // Named as a string or as an object, the same recipient: the same request.
    const named = expectRight(
      await sendMail.execute({ actor: sender, mail: request({ to: '"Ada" <ada@example.com>' }), idempotencyKey: 'n' }),
    );
    expect(
      expectRight(
        await sendMail.execute({
          actor: sender,
          mail: request({ to: { name: 'Ada', address: 'ada@example.com' } }),
          idempotencyKey: 'n',
        }),
      ).id,
    ).to.equal(named.id);
    expectLeftTag(
      await sendMail.execute({ actor: sender, mail: request({ to: 'ada@example.com' }), idempotencyKey: 'n' }),
      'IdempotencyKeyReused',
    );
  });

  it('hands them to the mailer with the message, on every attempt', async () => {
    const outbox = new MemoryOutbox();
    const clock = new ManualClock();
    const randomness = new SeededRandomness('deliver-files');
    const mailer = new MemoryMailer();
    const sendMail = new SendMail(outbox, clock, randomness, MAIL_SETTINGS);
    const deliver = new DeliverMail(outbox, mailer, new MemoryMarkdownRenderer(), clock, randomness, {
      leaseMs: 1000,
      maxAttempts: 3,
      retryBaseMs: 10,
      retryMaxMs: 10,
    });
    const { id } = expectRight(
      await sendMail.execute({ actor: OPERATOR, mail: request({ to: 'Ada <ada@example.com>', attachments: [pdf] }) }),
    );
    mailer.script.push({ kind: 'retry', reason: '451 later' });
    for (const _ of [1, 2]) {
      for (const message of await deliver.claimDue('w', 10)) await deliver.attempt('w', message);
      clock.advance(10);
    }
    expect(mailer.attempts).to.equal(2);
    expect(mailer.delivered).to.have.length(1);
    expect(mailer.delivered[0]).to.deep.include({
      id,
      to: [{ name: 'Ada', address: 'ada@example.com' }],
      envelopeTo: ['ada@example.com'],
      attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4') }],
    });
  });
});

describe('mail: rendering', () => {
  const markdown = new MemoryMarkdownRenderer();
  it('escapes variables in the HTML part (data, never markup) and gives them as they are in the text part', () => {
    const message = {
      id: 'x',
      messageId: '<x@example.com>',
      senderUserId: null,
      fromAddress: 'noreply@example.com',
      fromName: null,
      to: ['ada@example.com'],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: 's',
      content: 'Hi {{name}} <i>{{n}}</i>\n\nmailvar0mailvar',
      variables: { name: '<script>x</script> & "q"', n: 3 },
      status: 'queued' as const,
      attempts: 0,
      createdAt: 0,
      nextAttemptAt: 0,
      sentAt: null,
      lastError: null,
      recipientOutcomes: [],
    };
    const rendered = renderMessage(message, [], markdown, 123);
    expect(rendered.text).to.equal('Hi <script>x</script> & "q" <i>3</i>\n\nmailvar0mailvar');
    expect(rendered.html).to.equal(
      '<p>Hi &lt;script&gt;x&lt;/script&gt; &amp; &quot;q&quot; &lt;i&gt;3&lt;/i&gt;</p>\n<p>mailvar0mailvar</p>\n',
    );
    expect(rendered.date).to.equal(123);
  });
});

describe('mail: back-off', () => {
  const settings = { retryBaseMs: 1000, retryMaxMs: 60_000 };
  it('doubles from the base, up to the ceiling, with half of each wait random', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, settings, 0))).to.deep.equal([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((attempts) => retryDelay(attempts, settings, 0.999999))).to.deep.equal([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelay(20, settings, 0)).to.equal(30_000);
    expect(retryDelay(1000, settings, 0.5)).to.equal(45_000);
  });
});

describe('mail: a user’s quota of recipients', () => {
  const HOUR = { name: 'an hour', lengthMs: 3_600_000, limit: 10 };

  it('has room once enough of the oldest messages have left the window', () => {
    const inWindow = [
      { createdAt: 0, recipients: 4 },
      { createdAt: 100, recipients: 3 },
      { createdAt: 200, recipients: 3 },
    ];
    expect(roomAt(HOUR, inWindow, 4)).to.equal(HOUR.lengthMs);
    expect(roomAt(HOUR, inWindow, 7)).to.equal(100 + HOUR.lengthMs);
    expect(roomAt(HOUR, inWindow, 10)).to.equal(200 + HOUR.lengthMs);
  });

  it('refuses a user’s message past the hour’s recipients with when to try again; the operator’s are not counted', async () => {
    const clock = new ManualClock();
    const sendMail = new SendMail(new MemoryOutbox(), clock, new SeededRandomness('quota'), {
      ...MAIL_SETTINGS,
      maxRecipientsPerHour: 50,
    });
    const sender = holder(['Mail::Send']);
    const fifty = request({ to: Array.from({ length: 50 }, (_, i) => `r${i}@example.com`) });
    expectRight(await sendMail.execute({ actor: sender, mail: fifty }));
    clock.advance(1000);
    expect(
      expectLeftTag(await sendMail.execute({ actor: sender, mail: request() }), 'MailQuotaExceeded'),
    ).to.deep.include({ retryAfterSeconds: 3599 });
    expectRight(await sendMail.execute({ actor: OPERATOR, mail: fifty }));
    clock.advance(3_599_000);
    expectRight(await sendMail.execute({ actor: sender, mail: request() }));
  });

  it('counts nothing when both limits are off', async () => {
    const outbox = new MemoryOutbox();
    const sendMail = new SendMail(outbox, new ManualClock(), new SeededRandomness('no quota'), {
      ...MAIL_SETTINGS,
      maxRecipientsPerHour: null,
      maxRecipientsPerDay: null,
    });
    const sender = holder(['Mail::Send']);
    const fifty = request({ to: Array.from({ length: 50 }, (_, i) => `r${i}@example.com`) });
    for (let i = 0; i < 50; i += 1) expectRight(await sendMail.execute({ actor: sender, mail: fifty }));
    expect(await outbox.list({ limit: 100 })).to.have.length(50);
  });
});

describe('mail: sending, with an Idempotency-Key', () => {
  let outbox: MemoryOutbox;
  let clock: ManualClock;
  let sendMail: SendMail;
  let woken: number;
  const sender = holder(['Mail::Send']);
  beforeEach(() => {
    outbox = new MemoryOutbox();
    clock = new ManualClock();
    woken = 0;
    sendMail = new SendMail(
      outbox,
      clock,
      new SeededRandomness('mail'),
      { ...MAIL_SETTINGS, from: 'noreply@bücher.example' },
      () => (woken += 1),
    );
  });

  it('stores the message with its Message-ID and sender, and tells the worker', async () => {
    const accepted = expectRight(
      await sendMail.execute({
        actor: sender,
        mail: request({ fromName: 'Zoë', content: 'Order {{order}}', variables: { order: 1 } }),
      }),
    );
    expect(accepted).to.deep.equal({
      id: accepted.id,
      status: 'queued',
      messageId: `<${accepted.id}@xn--bcher-kva.example>`,
      replayed: false,
    });
    const stored = (await outbox.find(accepted.id))!;
    expect(stored).to.deep.include({
      fromAddress: 'noreply@bücher.example',
      fromName: 'Zoë',
      senderUserId: (sender as { principal: { user: { id: string } } }).principal.user.id,
      variables: { order: 1 },
      status: 'queued',
    });
    expect(woken).to.equal(1);
  });

  it('answers the same key and request with the first answer, another request under it with a conflict, storing nothing', async () => {
    const first = expectRight(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'order-1' }));
    // The same request, its fields in another order.
    const again = expectRight(
      await sendMail.execute({
        actor: sender,
        mail: { content: 'Hi there', subject: 'Hello', to: ['ada@example.com'] },
        idempotencyKey: 'order-1',
      }),
    );
    expect(again).to.deep.equal({ ...first, replayed: true });
    expectLeftTag(
      await sendMail.execute({ actor: sender, mail: request({ subject: 'Other' }), idempotencyKey: 'order-1' }),
      'IdempotencyKeyReused',
    );
    expect(await outbox.list({ limit: 10 })).to.have.length(1);
    expect(woken).to.equal(1);
    // Another token's same key is its own.
    expect(
      expectRight(await sendMail.execute({ actor: holder(['Mail::Send']), mail: request(), idempotencyKey: 'order-1' }))
        .replayed,
    ).to.equal(false);
  });

  it('forgets a key after 24 hours', async () => {
    const first = expectRight(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'k' }));
    clock.advance(24 * 60 * 60 * 1000 - 1);
    expect(expectRight(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'k' })).id).to.equal(
      first.id,
    );
    clock.advance(1);
    expect(
      expectRight(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'k' })).id,
    ).to.not.equal(first.id);
  });

  it('refuses a key over 255 characters or beyond printable ASCII, and a caller without Mail::Send', async () => {
    expect(
      expectLeftTag(
        await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'k'.repeat(256) }),
        'InvalidInput',
      ),
    ).to.deep.include({ fields: ['idempotencyKey'] });
    expectLeftTag(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'clé' }), 'InvalidInput');
    expectLeftTag(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: '' }), 'InvalidInput');
    expectRight(await sendMail.execute({ actor: sender, mail: request(), idempotencyKey: 'k'.repeat(255) }));
    expectLeftTag(await sendMail.execute({ actor: holder(['Mail::Read']), mail: request() }), 'NotAuthorized');
  });

  it('stores nothing for a refused request', async () => {
    expectLeftTag(
      await sendMail.execute({ actor: sender, mail: request({ to: 'nobody' }), idempotencyKey: 'k' }),
      'InvalidInput',
    );
    expect(await outbox.list({ limit: 10 })).to.deep.equal([]);
    expect(woken).to.equal(0);
  });
});

describe('mail: reading and retrying', () => {
  const outbox = new MemoryOutbox();
  const clock = new ManualClock();
  const sendMail = new SendMail(outbox, clock, new SeededRandomness('reader'), MAIL_SETTINGS);
  const reader = new MessageReader(outbox);
  const alice = holder(['Mail::Send']);
  const auditor = holder(['Mail::Read']);
  const bob = holder(['Mail::Send']);

  it('shows a sender their own messages, Mail::Read holders everyone’s, and nobody else anything (404 as for no message)', async () => {
    const { id } = expectRight(await sendMail.execute({ actor: alice, mail: request() }));
    expect(expectRight(await reader.status(alice, id))).to.deep.equal({
      id,
      status: 'queued',
      to: ['ada@example.com'],
      subject: 'Hello',
      attempts: 0,
      createdAt: new Date(clock.now()).toISOString(),
      sentAt: null,
      nextAttemptAt: new Date(clock.now()).toISOString(),
      lastError: null,
      recipients: [{ address: 'ada@example.com', name: null, status: 'pending', lastError: null }],
    });
    expect(expectRight(await reader.status(auditor, id)).id).to.equal(id);
    expect(expectRight(await reader.status(OPERATOR, id)).id).to.equal(id);
    expect(expectLeftTag(await reader.status(bob, id), 'MessageNotFound')).to.deep.equal({
      _tag: 'MessageNotFound',
      id,
    });
    expectLeftTag(await reader.status(alice, '00000000-0000-4000-8000-000000000000'), 'MessageNotFound');
    expectLeftTag(await reader.status(holder(['Cryptography::Encrypt']), id), 'NotAuthorized');
    expectLeftTag(await reader.status(alice, 'not-an-id'), 'InvalidInput');
    // A token narrowed below its user does not read with what only the user holds.
    expectLeftTag(
      await reader.status(holder(['Mail::Send', 'Mail::Read'], ['Cryptography::Encrypt']), id),
      'NotAuthorized',
    );
  });

  it('lets only Mail::Read holders list and show, and Mail::Read with Mail::Send retry, a failed message only', async () => {
    expectLeftTag(await reader.list(alice, { limit: 10 }), 'NotAuthorized');
    expectLeftTag(await reader.list(OPERATOR, { status: 'lost', limit: 10 }), 'InvalidInput');
    const retry = new RetryMessage(outbox, clock);
    const { id } = expectRight(await sendMail.execute({ actor: alice, mail: request() }));
    expectLeftTag(await retry.execute(alice, id), 'NotAuthorized');
    expect(expectLeftTag(await retry.execute(OPERATOR, id), 'MessageNotRetryable')).to.deep.equal({
      _tag: 'MessageNotRetryable',
      id,
      status: 'queued',
    });
    expectLeftTag(await retry.execute(OPERATOR, '00000000-0000-4000-8000-000000000000'), 'MessageNotFound');
  });
});

describe('mail: delivery', () => {
  const SETTINGS: DeliverySettings = { leaseMs: 60_000, maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 10_000 };
  let outbox: Outbox;
  let mailer: MemoryMailer;
  let clock: ManualClock;
  let deliver: DeliverMail;
  let sendMail: SendMail;
  beforeEach(() => {
    outbox = new MemoryOutbox();
    mailer = new MemoryMailer();
    clock = new ManualClock();
    deliver = new DeliverMail(
      outbox,
      mailer,
      new MemoryMarkdownRenderer(),
      clock,
      new SeededRandomness('deliver'),
      SETTINGS,
    );
    sendMail = new SendMail(outbox, clock, new SeededRandomness('send'), MAIL_SETTINGS);
  });

  /** Claims what is due and attempts each, as the worker does. */
  async function round(worker = 'w1') {
    const claimed = await deliver.claimDue(worker, 10);
    return Promise.all(claimed.map((message) => deliver.attempt(worker, message)));
  }

  it('writes sent only once the mailer accepted the message, and the message as asked', async () => {
    const { id, messageId } = expectRight(
      await sendMail.execute({
        actor: OPERATOR,
        mail: request({
          subject: 'Hi {{name}}',
          content: 'Dear {{name}}',
          variables: { name: 'Ada' },
          fromName: 'Zoë',
        }),
      }),
    );
    clock.advance(5);
    const [report] = await round();
    expect(report).to.deep.include({
      id,
      recorded: true,
      settlement: {
        status: 'sent',
        attempts: 1,
        at: clock.now(),
        recipients: [{ address: 'ada@example.com', status: 'delivered', lastError: null }],
      },
    });
    expect(mailer.delivered).to.have.length(1);
    expect(mailer.delivered[0]).to.deep.include({
      id,
      messageId,
      subject: 'Hi Ada',
      text: 'Dear Ada',
      html: '<p>Dear Ada</p>\n',
      from: { address: 'noreply@example.com', name: 'Zoë' },
    });
    expect(await outbox.find(id)).to.deep.include({ status: 'sent', attempts: 1, sentAt: clock.now() });
    expect(await round()).to.deep.equal([]);
  });

  it('tries again after a passing failure, later each time, and gives up after maxAttempts with the reason', async () => {
    const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: request() }));
    mailer.script.push(
      { kind: 'retry', reason: '451 try later' },
      { kind: 'retry', reason: 'ECONNREFUSED' },
      { kind: 'retry', reason: '421 busy' },
    );
    await round();
    let stored = (await outbox.find(id))!;
    expect(stored).to.deep.include({ status: 'queued', attempts: 1, lastError: '451 try later' });
    expect(stored.nextAttemptAt - clock.now()).to.be.within(500, 1000);
    expect(await round()).to.deep.equal([]);
    clock.advance(1000);
    await round();
    stored = (await outbox.find(id))!;
    expect(stored).to.deep.include({ attempts: 2, lastError: 'ECONNREFUSED' });
    expect(stored.nextAttemptAt - clock.now()).to.be.within(1000, 2000);
    clock.advance(2000);
    await round();
    expect(await outbox.find(id)).to.deep.include({
      status: 'failed',
      attempts: 3,
      lastError: '421 busy (gave up after 3 attempts)',
    });
    expect(mailer.delivered).to.deep.equal([]);
  });

  it('marks a refused message failed at once, with the server’s reason; a retry sends it', async () => {
    const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: request() }));
    mailer.script.push({ kind: 'refused', reason: '550 5.1.1 no such user' });
    await round();
    expect(await outbox.find(id)).to.deep.include({
      status: 'failed',
      attempts: 1,
      lastError: '550 5.1.1 no such user',
    });
    expect(expectRight(await new RetryMessage(outbox, clock).execute(OPERATOR, id))).to.deep.include({
      status: 'queued',
      attempts: 0,
    });
    await round();
    expect(await outbox.find(id)).to.deep.include({ status: 'sent', attempts: 1 });
  });

  it('does not record what a worker sent after its lease ran out and another took the message', async () => {
    const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: request() }));
    const [message] = await deliver.claimDue('slow', 10);
    clock.advance(SETTINGS.leaseMs);
    const [taken] = await deliver.claimDue('fresh', 10);
    expect(taken!.id).to.equal(id);
    expect((await deliver.attempt('slow', message!)).recorded).to.equal(false);
    expect((await deliver.attempt('fresh', taken!)).recorded).to.equal(true);
    // At least once: both attempts reached the mailer, with the same Message-ID.
    expect(mailer.delivered.map((each) => each.messageId)).to.deep.equal([message!.messageId, message!.messageId]);
  });

  describe('recipient by recipient', () => {
    const TWO = request({ to: ['ada@example.com', 'grace@example.com'], cc: 'team@example.com' });
    const outcomesOf = async (id: string) => (await outbox.find(id))!;

    it('tries a recipient refused for now (4xx) again, alone, and never sends the others the message twice', async () => {
      const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: TWO }));
      mailer.script.push({
        kind: 'accepted',
        refusals: [{ address: 'grace@example.com', temporary: true, reason: '450 4.2.0 Greylisted' }],
      });
      await round();
      expect(await outcomesOf(id)).to.deep.include({
        status: 'queued',
        attempts: 1,
        lastError: 'grace@example.com: 450 4.2.0 Greylisted',
        recipientOutcomes: [
          { address: 'ada@example.com', status: 'delivered', lastError: null },
          { address: 'grace@example.com', status: 'pending', lastError: '450 4.2.0 Greylisted' },
          { address: 'team@example.com', status: 'delivered', lastError: null },
        ],
      });
      clock.advance(1000);
      await round();
      expect(mailer.delivered.map((message) => message.envelopeTo)).to.deep.equal([
        ['ada@example.com', 'grace@example.com', 'team@example.com'],
        ['grace@example.com'],
      ]);
      // Every recipient is in the headers of both attempts.
      expect(mailer.delivered[1]).to.deep.include({
        to: ['ada@example.com', 'grace@example.com'],
        cc: ['team@example.com'],
      });
      const sent = await outcomesOf(id);
      expect(sent).to.deep.include({
        status: 'sent',
        attempts: 2,
        lastError: 'grace@example.com: 450 4.2.0 Greylisted',
      });
      expect(expectRight(await new MessageReader(outbox).status(OPERATOR, id)).recipients).to.deep.equal([
        { address: 'ada@example.com', name: null, status: 'delivered', lastError: null },
        { address: 'grace@example.com', name: null, status: 'delivered', lastError: '450 4.2.0 Greylisted' },
        { address: 'team@example.com', name: null, status: 'delivered', lastError: null },
      ]);
    });

    it('records a recipient refused for good (5xx): the message is sent to the others, and says whom it did not reach', async () => {
      const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: TWO }));
      mailer.script.push({
        kind: 'accepted',
        refusals: [{ address: 'grace@example.com', temporary: false, reason: '550 5.1.1 No such user' }],
      });
      await round();
      expect(await outcomesOf(id)).to.deep.include({
        status: 'sent',
        attempts: 1,
        lastError: 'grace@example.com: 550 5.1.1 No such user',
      });
      expect((await outcomesOf(id)).recipientOutcomes.map((each) => each.status)).to.deep.equal([
        'delivered',
        'refused',
        'delivered',
      ]);
      expect(await round()).to.deep.equal([]);
    });

    it('with every recipient refused, fails those refused for good and tries the others again; failed if nobody is ever reached', async () => {
      const { id } = expectRight(
        await sendMail.execute({ actor: OPERATOR, mail: request({ to: ['ada@example.com', 'grace@example.com'] }) }),
      );
      mailer.script.push(
        {
          kind: 'retry',
          reason: '451 4.7.1 Try later',
          refusals: [
            { address: 'ada@example.com', temporary: false, reason: '550 no' },
            { address: 'grace@example.com', temporary: true, reason: '451 4.7.1 Try later' },
          ],
        },
        { kind: 'retry', reason: '451 again' },
        { kind: 'retry', reason: '451 still' },
      );
      await round();
      expect(await outcomesOf(id)).to.deep.include({
        status: 'queued',
        lastError: 'ada@example.com: 550 no; grace@example.com: 451 4.7.1 Try later',
      });
      clock.advance(1000);
      await round();
      expect(await outcomesOf(id)).to.deep.include({ status: 'queued', attempts: 2, lastError: '451 again' });
      clock.advance(2000);
      await round();
      expect(mailer.delivered.map((message) => message.envelopeTo)).to.deep.equal([]);
      expect(await outcomesOf(id)).to.deep.include({
        status: 'failed',
        attempts: 3,
        lastError: '451 still (gave up after 3 attempts)',
        recipientOutcomes: [
          { address: 'ada@example.com', status: 'refused', lastError: '550 no' },
          { address: 'grace@example.com', status: 'refused', lastError: '451 still (gave up after 3 attempts)' },
        ],
      });
      // Retried by the operator, both are tried again.
      expectRight(await new RetryMessage(outbox, clock).execute(OPERATOR, id));
      await round();
      expect(await outcomesOf(id)).to.deep.include({ status: 'sent', attempts: 1 });
      expect(mailer.delivered.map((message) => message.envelopeTo)).to.deep.equal([
        ['ada@example.com', 'grace@example.com'],
      ]);
    });

    it('gives up on a recipient still refused for now after maxAttempts, the message sent to the others', async () => {
      const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: TWO }));
      const greylisted = {
        kind: 'accepted' as const,
        refusals: [{ address: 'grace@example.com', temporary: true, reason: '450 greylisted' }],
      };
      mailer.script.push(greylisted, greylisted, greylisted);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await round();
        clock.advance(10_000);
      }
      expect(await outcomesOf(id)).to.deep.include({
        status: 'sent',
        attempts: 3,
        lastError: 'grace@example.com: 450 greylisted (gave up after 3 attempts)',
      });
      expect((await outcomesOf(id)).recipientOutcomes[1]).to.deep.equal({
        address: 'grace@example.com',
        status: 'refused',
        lastError: '450 greylisted (gave up after 3 attempts)',
      });
    });
  });

  it('treats a mailer that throws (a bug) as a passing failure, never losing the message', async () => {
    const { id } = expectRight(await sendMail.execute({ actor: OPERATOR, mail: request() }));
    await mailer.close();
    await round();
    expect(await outbox.find(id)).to.deep.include({
      status: 'queued',
      attempts: 1,
      lastError: 'unexpected failure: the memory mailer is closed',
    });
  });
});
