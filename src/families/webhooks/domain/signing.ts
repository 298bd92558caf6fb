import { createHmac } from 'node:crypto';
import type { Randomness } from '../../../domain/ports.js';
import type { SigningSecrets } from './endpoint.js';

/** Standard Webhooks' prefix of a secret: receivers' libraries take the secret as written. */
const SECRET_PREFIX = 'whsec_';
/** 32 bytes: the scheme takes 24 to 64, and HMAC-SHA256's block gains nothing beyond 64. */
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and base64 of random bytes. */
export const newSigningSecret = (randomness: Randomness): string =>
  SECRET_PREFIX + randomness.bytes(SECRET_BYTES).toString('base64');

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The secrets that sign at `now`: the current one, and the one it replaced while its overlap lasts. */
export const signingSecretsAt = (secrets: SigningSecrets, now: number): readonly string[] =>
  secrets.previous !== null && secrets.previousUntil !== null && now < secrets.previousUntil
    ? [secrets.current, secrets.previous]
    : [secrets.current];

/** The headers of the Standard Webhooks scheme for one delivery attempt. */
export interface SignatureHeaders {
  readonly 'webhook-id': string;
  /** Unix seconds of the attempt, which receivers compare with their clock to refuse a replay. */
  readonly 'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256>` per secret, separated by spaces. */
  readonly 'webhook-signature': string;
}

/**
 * Signs `id.timestamp.body` with each secret's decoded bytes, as Standard Webhooks does: a
 * receiver holding any one of the secrets verifies the delivery.
 */
export function signatureHeaders(
  secrets: readonly string[],
  webhookId: string,
  timestampMs: number,
  body: string,
): SignatureHeaders {
  const timestamp = String(Math.floor(timestampMs / 1000));
  const signed = `${webhookId}.${timestamp}.${body}`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64'))
        .update(signed)
        .digest('base64')}`,
  );
  return { 'webhook-id': webhookId, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
