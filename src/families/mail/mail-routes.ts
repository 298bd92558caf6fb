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

const address: JsonSchema = { type: 'string', format: 'idn-email' };
const addresses = (maxItems: number) =>
  asSent('an address or a list of addresses', {
    anyOf: [address, { type: 'array', items: address, minItems: 1, maxItems }],
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
      status: oneOf(RECIPIENT_STATUSES, 'pending, delivered or refused'),
      lastError: t.union([t.string, t.null]),
    }),
  ),
});

const messagePage = t.strict({ messages: t.readonlyArray(messageStatus), nextCursor: t.union([t.string, t.null]) });

/** What a replay says of itself (IETF httpapi's Idempotency-Key draft, as Stripe answers). */
const REPLAYED = { 'Idempotent-Replayed': 'true' } as const;

/**
 * The largest body of POST /mail/send: room for the content written with a JSON escape for every
 * other byte, and 64 KiB for the other fields and the variables.
 */
export const mailBodyBytes = (maxContentBytes: number): number => 2 * maxContentBytes + 65_536;

export function mailRoutes(deps: MailRouteDependencies, { maxContentBytes }: MailRouteSettings): Route[] {
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
          `one address or a list; at most ${MAX_RECIPIENTS} recipients in to, cc and bcc together`,
        ),
        subject: required(headerText(MAX_SUBJECT_CHARACTERS), 'the subject; {{name}} is replaced by a variable'),
        content: required(
          asSent('Markdown text', { type: 'string', minLength: 1 }),
          `Markdown, at most ${maxContentBytes} bytes of UTF-8; raw HTML in it is shown as text`,
        ),
        cc: optional(addresses(MAX_RECIPIENTS), 'one address or a list'),
        bcc: optional(addresses(MAX_RECIPIENTS), 'one address or a list; not shown to the other recipients'),
        replyTo: optional(addresses(MAX_RECIPIENTS), 'where replies go: one address or a list'),
        fromName: optional(
          asSent('text without line breaks, other control characters, @ or angle brackets', {
            type: 'string',
            minLength: 1,
            maxLength: MAX_FROM_NAME_CHARACTERS,
            pattern: `^[^${FROM_NAME_ADDRESS_LIKE}]*$`,
          }),
          "the sender's display name, which may not contain an address; the address is the installation's",
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
      maxBodyBytes: mailBodyBytes(maxContentBytes),
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
