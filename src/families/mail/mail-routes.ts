import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { DEFAULT_MESSAGE_PAGE, MAX_MESSAGE_PAGE, MESSAGE_CURSOR, type MessageReader } from './domain/manage-mail.js';
import {
  FROM_NAME_ADDRESS_LIKE,
  MAX_FROM_NAME_CHARACTERS,
  MAX_RECIPIENTS,
  MAX_SUBJECT_CHARACTERS,
  MESSAGE_ID,
  MESSAGE_ID_RULE,
  MESSAGE_STATUSES,
  RECIPIENT_STATUSES,
} from './domain/message.js';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_RULE, type SendMail } from './domain/send-mail.js';
import { ATTACHMENT_TYPES, MAX_ATTACHMENTS, MAX_FILENAME_CHARACTERS } from './domain/attachments.js';
import { MAX_DISPLAY_NAME_CHARACTERS } from './domain/mailboxes.js';
import { MAX_VARIABLES, VARIABLE_NAME } from './domain/variables.js';
import { MailPermission } from './domain/permissions.js';
import { described, matching, oneOf, type JsonSchema } from '../../platform/http/codecs.js';
import { optional, pageQuery, required } from '../../platform/http/fields.js';
import { defineRoute, json, jsonOf, type Route } from '../../platform/http/route-table.js';

export interface MailRouteDependencies {
  readonly sendMail: SendMail;
  readonly reader: MessageReader;
}

export interface MailRouteSettings {
  readonly maxContentBytes: number;
  readonly maxAttachmentBytes: number;
}

/**
 * A body field passed to the use case as sent: the domain checks every rule of a message (it
 * serves the library too), this row only says what they are, for the document.
 */
const asSent = (name: string, jsonSchema: JsonSchema) =>
  described(
    new t.Type<unknown, unknown, unknown>(
      name,
      (_u): _u is unknown => true,
      (u) => t.success(u),
      t.identity,
    ),
    jsonSchema,
  );

/** `ada@example.com`, `"Ada Lovelace" <ada@example.com>`, `Ada Lovelace <ada@example.com>`, or `{name, address}`. */
const mailbox: JsonSchema = {
  anyOf: [
    { type: 'string', minLength: 3 },
    {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: MAX_DISPLAY_NAME_CHARACTERS },
        address: { type: 'string', format: 'idn-email' },
      },
      required: ['address'],
      additionalProperties: false,
    },
  ],
};
const addresses = (maxItems: number) =>
  asSent('an address or a list of addresses, each with or without a display name', {
    anyOf: [mailbox, { type: 'array', items: mailbox, minItems: 1, maxItems }],
  });
const attachments = (maxBytes: number) =>
  asSent('a list of attachments', {
    type: 'array',
    maxItems: MAX_ATTACHMENTS,
    items: {
      type: 'object',
      properties: {
        filename: { type: 'string', minLength: 1, maxLength: MAX_FILENAME_CHARACTERS, pattern: '^[^/\\\\]*$' },
        contentType: { type: 'string', enum: [...ATTACHMENT_TYPES] },
        content: { type: 'string', contentEncoding: 'base64', maxLength: base64Length(maxBytes) },
      },
      required: ['filename', 'contentType', 'content'],
      additionalProperties: false,
    },
  });
const headerText = (maxLength: number) =>
  asSent('text without line breaks or other control characters', { type: 'string', minLength: 1, maxLength });

const accepted = t.strict({ id: t.string, status: t.literal('queued'), messageId: t.string });

const messageStatus = t.strict({
  id: t.string,
  status: oneOf(MESSAGE_STATUSES, 'queued, sent or failed'),
  to: t.readonlyArray(t.string),
  subject: t.string,
  attempts: t.number,
  createdAt: t.string,
  sentAt: t.union([t.string, t.null]),
  nextAttemptAt: t.union([t.string, t.null]),
  lastError: t.union([t.string, t.null]),
  recipients: t.readonlyArray(
    t.strict({
      address: t.string,
      name: t.union([t.string, t.null]),
      status: oneOf(RECIPIENT_STATUSES, 'pending, delivered or refused'),
      lastError: t.union([t.string, t.null]),
    }),
  ),
});

const messagePage = t.strict({ messages: t.readonlyArray(messageStatus), nextCursor: t.union([t.string, t.null]) });

/** What a replay says of itself (IETF httpapi's Idempotency-Key draft, as Stripe answers). */
const REPLAYED = { 'Idempotent-Replayed': 'true' } as const;

/** How long base64 makes `bytes` bytes: 4 characters for every 3 bytes begun. */
const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/**
 * The largest body of POST /mail/send: room for the content written with a JSON escape for every
 * other byte, 64 KiB for the other fields and the variables, and the attachments' base64 (as
 * written, without JSON escapes: `\/` for `/` would count twice) with 1 KiB for each one's name
 * and type.
 */
export const mailBodyBytes = ({ maxContentBytes, maxAttachmentBytes }: MailRouteSettings): number =>
  2 * maxContentBytes + 65_536 + base64Length(maxAttachmentBytes) + MAX_ATTACHMENTS * 1024;

export function mailRoutes(deps: MailRouteDependencies, settings: MailRouteSettings): Route[] {
  const { maxContentBytes, maxAttachmentBytes } = settings;
  return [
    defineRoute({
      method: 'POST',
      path: '/mail/send',
      permission: MailPermission.MailSend,
      summary:
        'Queue a message for delivery, written in Markdown (an HTML and a plain-text part are sent). Any property besides the fields ' +
        'is a variable: {{name}} in subject and content is replaced by its value. Answered once the message is stored; ' +
        'GET /mail/status says what became of it',
      headers: {
        'idempotency-key': optional(
          matching(IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_RULE),
          'the same key from the same token within 24 hours answers the first request again, storing nothing; with another body, 409',
        ),
      },
      body: {
        to: required(
          addresses(MAX_RECIPIENTS),
          `one address or a list, each as ada@example.com, "Ada Lovelace" <ada@example.com> or {name, address}; ` +
            `at most ${MAX_RECIPIENTS} recipients in to, cc and bcc together`,
        ),
        subject: required(headerText(MAX_SUBJECT_CHARACTERS), 'the subject; {{name}} is replaced by a variable'),
        content: required(
          asSent('Markdown text', { type: 'string', minLength: 1 }),
          `Markdown, at most ${maxContentBytes} bytes of UTF-8; raw HTML in it is shown as text`,
        ),
        cc: optional(addresses(MAX_RECIPIENTS), 'one address or a list, as to'),
        bcc: optional(addresses(MAX_RECIPIENTS), 'one address or a list, as to; not shown to the other recipients'),
        replyTo: optional(addresses(MAX_RECIPIENTS), 'where replies go: one address or a list, as to'),
        fromName: optional(
          asSent('text without line breaks, other control characters, @ or angle brackets', {
            type: 'string',
            minLength: 1,
            maxLength: MAX_FROM_NAME_CHARACTERS,
            pattern: `^[^${FROM_NAME_ADDRESS_LIKE}]*$`,
          }),
          "the sender's display name, which may not contain an address; the address is the installation's",
        ),
        attachments: optional(
          attachments(maxAttachmentBytes),
          `files sent with the message, each {filename, contentType, content (base64)}: at most ${MAX_ATTACHMENTS}, ` +
            `${maxAttachmentBytes} bytes together once decoded, of the types ${ATTACHMENT_TYPES.join(', ')}`,
        ),
      },
      additionalBody: {
        field: optional(
          asSent('a string or a number', { anyOf: [{ type: 'string' }, { type: 'number' }] }),
          'a variable: {{name}} in subject and content stands for it',
        ),
        namePattern: VARIABLE_NAME,
        maxCount: MAX_VARIABLES,
      },
      maxBodyBytes: mailBodyBytes(settings),
      fieldPlaces: { idempotencyKey: 'header' },
      status: 202,
      response: accepted,
      responseHeaders: {
        'Idempotent-Replayed': optional(
          oneOf(['true'], 'true'),
          'present when this answers an earlier request with the same Idempotency-Key',
        ),
      },
      errors: ['IdempotencyKeyReused', 'MailQuotaExceeded'],
      handle: async ({ actor, body, additional, headers }) => {
        const sent = await deps.sendMail.execute({
          actor,
          mail: { ...body, variables: additional },
          idempotencyKey: headers['idempotency-key'],
        });
        if (E.isLeft(sent)) return sent;
        const { id, status, messageId, replayed } = sent.right;
        return E.right({ ...json({ id, status, messageId }), ...(replayed && { headers: REPLAYED }) });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/mail/status',
      permission: null,
      family: 'Mail',
      summary: `What became of a message: your own with ${MailPermission.MailSend}, anyone's with ${MailPermission.MailRead}`,
      query: { id: required(matching(MESSAGE_ID, MESSAGE_ID_RULE), 'the id POST /mail/send answered') },
      response: messageStatus,
      errors: ['MessageNotFound'],
      handle: async ({ actor, query: { id } }) => jsonOf(await deps.reader.status(actor, id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/mail/list',
      permission: null,
      family: 'Mail',
      summary:
        `Messages newest first, as GET /mail/status shows each: your own with ${MailPermission.MailSend}, ` +
        `everyone's with ${MailPermission.MailRead}`,
      query: {
        status: optional(oneOf(MESSAGE_STATUSES, MESSAGE_STATUSES.join(', ')), 'only messages of this status'),
        ...pageQuery('messages', { max: MAX_MESSAGE_PAGE, byDefault: DEFAULT_MESSAGE_PAGE, cursor: MESSAGE_CURSOR }),
      },
      response: messagePage,
      handle: async ({ actor, query }) => jsonOf(await deps.reader.page(actor, query)),
    }),
  ];
}
