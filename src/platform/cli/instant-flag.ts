import * as E from 'fp-ts/lib/Either.js';
import { isoInstant } from '../http/codecs.js';
import { CliFailure } from './cli-failure.js';

/**
 * A `--from` or `--to` flag read as the HTTP routes read those parameters (ISO 8601, an offset
 * required with a time), refused in one line before the database is opened.
 */
export function instantFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const decoded = isoInstant.decode(text);
  if (E.isLeft(decoded))
    throw new CliFailure(`${flag} must be an ISO 8601 date (2026-11-26) or date and time with offset, got "${text}"`);
  return decoded.right;
}
