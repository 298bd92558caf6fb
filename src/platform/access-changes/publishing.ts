import type { Logger } from 'pino';
import { accessChangeText } from '../../domain/identity/access-change-text.js';
import type { AccessChange } from '../../domain/identity/access-changes.js';

/**
 * Publishes a change the way every feed must: never rejecting. A feed that cannot publish says so
 * in the log, and the other processes learn of the change when their cached tokens lapse.
 */
export async function publishOrWarn(
  change: AccessChange,
  logger: Logger,
  send: (text: string) => Promise<unknown>,
): Promise<void> {
  const text = accessChangeText(change);
  try {
    await send(text);
  } catch (error) {
    logger.warn(
      { err: error, change: text },
      'access change not published: other processes see it when their cached tokens lapse',
    );
  }
}
