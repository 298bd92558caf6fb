import * as E from 'fp-ts/lib/Either.js';
import { invalidInput, missingInput, type InputError } from '../../../domain/errors.js';
import { characterCount, CONTROL_OR_INVISIBLE_RULE, hasControlOrInvisibleCharacter } from '../../../domain/text.js';
import { readAttachments, type Attachment } from './attachments.js';
import { readMailbox, type Mailbox } from './mailboxes.js';
import { fill, firstUnknown, placeholdersIn, readVariables, type Variables } from './variables.js';

/** Where a message is: waiting for its (next) attempt, handed to the mail server, or given up on. */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Where one recipient of a message is: not yet taken by the server, taken, or refused for good. */
export const RECIPIENT_STATUSES = ['pending', 'delivered', 'refused'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** A message's id, the one its status is asked by: a UUID. */
export const MESSAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MESSAGE_ID_RULE = 'a message id as POST /mail/send answered it (a UUID)';

export const MAX_RECIPIENTS = 50;
/** RFC 5322's longest line: a subject longer than that would be folded by every mail program. */
export const MAX_SUBJECT_CHARACTERS = 998;
export const MAX_FROM_NAME_CHARACTERS = 200;
/**
 * The characters of an at sign (and its full-width and small look-alikes) or angle brackets (and theirs): what would
 * let a display name pass for an address (`support@bank.com`, `Bank <help@bank.com>`) beside the
 * installation's own, which is the one the message really comes from.
 */
export const FROM_NAME_ADDRESS_LIKE = '@\uff20\ufe6b<>\uff1c\uff1e\ufe64\ufe65';
const ADDRESS_LIKE = new RegExp(`[${FROM_NAME_ADDRESS_LIKE}]`, 'u');
export const FROM_NAME_ADDRESS_RULE =
  'fromName must not contain an address: no @ or angle brackets, since the sender’s address is the installation’s';

/** What a caller asks to send, as received: shapes are checked here, for every transport. */
export interface MailRequest {
  readonly to?: unknown;
  readonly cc?: unknown;
  readonly bcc?: unknown;
  readonly replyTo?: unknown;
  readonly subject?: unknown;
  /** Markdown. */
  readonly content?: unknown;
  /** The sender's display name; the address is the installation's (`mail.from`). */
  readonly fromName?: unknown;
  /** Files sent with the message: `[{filename, contentType, content (base64)}]`. */
  readonly attachments?: unknown;
  /** Every other property of the request: the message's variables. */
  readonly variables?: Readonly<Record<string, unknown>>;
}

/** A request that passed: addresses checked, the subject filled in, the content as written with its variables. */
export interface CheckedMail {
  readonly to: readonly Mailbox[];
  readonly cc: readonly Mailbox[];
  readonly bcc: readonly Mailbox[];
  readonly replyTo: readonly Mailbox[];
  readonly fromName: string | null;
  /** As written, `{{name}}`s and all: what a repeated request is compared by. */
  readonly subjectAsWritten: string;
  /** With its variables filled in: the Subject header. */
  readonly subject: string;
  readonly content: string;
  readonly variables: Variables;
  readonly attachments: readonly Attachment[];
}

/** Fields a request may carry; any other property is a variable. */
export const MAIL_FIELDS = ['to', 'cc', 'bcc', 'replyTo', 'subject', 'content', 'fromName', 'attachments'] as const;

/** Fields of the old API, which a variable may not be mistaken for. */
const REMOVED_FIELDS: ReadonlyMap<string, string> = new Map([
  [
    'text',
    'text is no longer taken: write the message as Markdown in content, which gives both the text and the HTML part',
  ],
  [
    'html',
    'html is no longer taken: write the message as Markdown in content, which gives both the text and the HTML part',
  ],
  ['url', 'url is no longer taken: put the link in content'],
]);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const notText = (text: string): boolean => LONE_SURROGATE.test(text);

/** One mailbox (an address, with or without its display name) or a list of them; `required` lists must name at least one. */
function addresses(field: string, value: unknown, required: boolean): E.Either<InputError, readonly Mailbox[]> {
  if (value === undefined || value === null) return required ? E.left(missingInput(field)) : E.right([]);
  const alone = !Array.isArray(value);
  const list: readonly unknown[] = alone ? [value] : value;
  if (required && list.length === 0) return E.left(invalidInput(field, `${field} must name at least one address`));
  const mailboxes: Mailbox[] = [];
  for (const [index, each] of list.entries()) {
    const mailbox = readMailbox(each, alone ? field : `${field}[${index}]`);
    if (E.isLeft(mailbox)) return E.left(invalidInput(field, mailbox.left));
    mailboxes.push(mailbox.right);
  }
  return E.right(mailboxes);
}

/** Text for a header: non-blank, at most `max` characters, no line breaks or other control or invisible formatting characters. */
function headerText(field: string, value: unknown, max: number): E.Either<InputError, string> {
  if (typeof value !== 'string') return E.left(invalidInput(field, `${field} must be text`));
  if (value.trim() === '') return E.left(invalidInput(field, `${field} must not be empty`));
  if (notText(value)) return E.left(invalidInput(field, `${field} holds a lone surrogate, which is not text`));
  if (characterCount(value) > max) return E.left(invalidInput(field, `${field} must be at most ${max} characters`));
  if (hasControlOrInvisibleCharacter(value))
    return E.left(invalidInput(field, `${field} must not contain line breaks or other ${CONTROL_OR_INVISIBLE_RULE}`));
  return E.right(value);
}

export interface MailLimits {
  /** The largest content, as written and with its variables filled in, in UTF-8 bytes. */
  readonly maxContentBytes: number;
  /** The most bytes a message's attachments may have together, decoded. */
  readonly maxAttachmentBytes: number;
}

function content(value: unknown, maxBytes: number): E.Either<InputError, string> {
  if (typeof value !== 'string') return E.left(invalidInput('content', 'content must be Markdown text'));
  if (value.trim() === '') return E.left(invalidInput('content', 'content must not be empty'));
  if (notText(value)) return E.left(invalidInput('content', 'content holds a lone surrogate, which is not text'));
  if (Buffer.byteLength(value) > maxBytes)
    return E.left(invalidInput('content', `content must be at most ${maxBytes} bytes of UTF-8`));
  return E.right(value);
}

/**
 * Checks a request to send mail, field by field: missing fields first, then each field's rules,
 * then the variables and their use (a `{{name}}` without a value; in the subject, a value that
 * would break the header).
 */
export function checkMail(
  request: MailRequest,
  { maxContentBytes, maxAttachmentBytes }: MailLimits,
): E.Either<InputError, CheckedMail> {
  const missing = (['to', 'subject', 'content'] as const).filter(
    (field) => request[field] === undefined || request[field] === null,
  );
  if (missing.length > 0) return E.left(missingInput(...missing));
  const to = addresses('to', request.to, true);
  if (E.isLeft(to)) return to;
  const cc = addresses('cc', request.cc, false);
  if (E.isLeft(cc)) return cc;
  const bcc = addresses('bcc', request.bcc, false);
  if (E.isLeft(bcc)) return bcc;
  const recipients = to.right.length + cc.right.length + bcc.right.length;
  if (recipients > MAX_RECIPIENTS)
    return E.left(
      invalidInput(
        ['to', 'cc', 'bcc'],
        `at most ${MAX_RECIPIENTS} recipients in to, cc and bcc together, got ${recipients}`,
      ),
    );
  const replyTo = addresses('replyTo', request.replyTo, false);
  if (E.isLeft(replyTo)) return replyTo;
  if (replyTo.right.length > MAX_RECIPIENTS)
    return E.left(invalidInput('replyTo', `replyTo must list at most ${MAX_RECIPIENTS} addresses`));
  const fromName =
    request.fromName === undefined || request.fromName === null
      ? E.right(null)
      : headerText('fromName', request.fromName, MAX_FROM_NAME_CHARACTERS);
  if (E.isLeft(fromName)) return fromName;
  if (fromName.right !== null && ADDRESS_LIKE.test(fromName.right))
    return E.left(invalidInput('fromName', FROM_NAME_ADDRESS_RULE));
  const subject = headerText('subject', request.subject, MAX_SUBJECT_CHARACTERS);
  if (E.isLeft(subject)) return subject;
  const markdown = content(request.content, maxContentBytes);
  if (E.isLeft(markdown)) return markdown;
  const variables = readVariables(request.variables ?? {}, REMOVED_FIELDS);
  if (E.isLeft(variables)) return variables;
  const attachments = readAttachments(request.attachments, maxAttachmentBytes);
  if (E.isLeft(attachments)) return attachments;
  return filled(
    {
      to: to.right,
      cc: cc.right,
      bcc: bcc.right,
      replyTo: replyTo.right,
      fromName: fromName.right,
      subjectAsWritten: subject.right,
      subject: subject.right,
      content: markdown.right,
      variables: variables.right,
      attachments: attachments.right,
    },
    maxContentBytes,
  );
}

/** The subject filled in, once every `{{name}}` of subject and content is known to have a value that fits where it stands. */
function filled(mail: CheckedMail, maxContentBytes: number): E.Either<InputError, CheckedMail> {
  for (const field of ['subject', 'content'] as const) {
    const unknown = firstUnknown(mail[field], mail.variables);
    if (unknown !== undefined)
      return E.left(invalidInput(unknown, `${field} uses {{${unknown}}}, which the request gives no value for`));
  }
  // A variable neither uses would be read and dropped (a misspelt field, say): refused instead.
  const used = new Set([...placeholdersIn(mail.subject), ...placeholdersIn(mail.content)]);
  const unused = Object.keys(mail.variables).find((name) => !used.has(name));
  if (unused !== undefined)
    return E.left(
      invalidInput(unused, `${unused} is neither a field nor a variable that subject or content uses as {{${unused}}}`),
    );
  for (const name of placeholdersIn(mail.subject)) {
    const value = String(mail.variables[name]);
    if (hasControlOrInvisibleCharacter(value))
      return E.left(
        invalidInput(
          name,
          `the variable ${name} is used in subject, which must not contain line breaks or other ${CONTROL_OR_INVISIBLE_RULE}`,
        ),
      );
  }
  const subject = fill(mail.subject, mail.variables);
  if (characterCount(subject) > MAX_SUBJECT_CHARACTERS)
    return E.left(
      invalidInput(
        'subject',
        `subject must be at most ${MAX_SUBJECT_CHARACTERS} characters with its variables filled in`,
      ),
    );
  if (Buffer.byteLength(fill(mail.content, mail.variables)) > maxContentBytes) {
    return E.left(
      invalidInput('content', `content must be at most ${maxContentBytes} bytes of UTF-8 with its variables filled in`),
    );
  }
  return E.right({ ...mail, subject });
}
