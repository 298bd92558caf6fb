import { performance } from 'node:perf_hooks';
import type { LookupFunction } from 'node:net';
import { lookupFetch, type LookupFetch } from '../../../platform/upstream/lookup-fetch.js';
import { RefusedDestination, type OutboundGuard } from '../../../platform/upstream/outbound-guard.js';
import type { AttemptOutcome, WebhookRequest, WebhookSender } from '../domain/ports.js';

const USER_AGENT = 'utility-api-webhooks';

/** Why a fetch failed, in one line: the guard's refusal, the time-out, or the network's error code. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof RefusedDestination || cause.name === 'RefusedDestination') return cause.message;
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !cause.cause) return `${code}: ${cause.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Posts deliveries through the outbound guard: a name resolves to allowed addresses only, the
 * address actually connected is checked, no redirect is followed (a 3xx is the answer), and an
 * attempt ends at `timeoutMs` whatever the receiver does.
 */
export class GuardedWebhookSender implements WebhookSender {
  private readonly client: LookupFetch;

  constructor(
    guard: OutboundGuard,
    lookup: LookupFunction,
    private readonly timeoutMs: number,
  ) {
    this.client = lookupFetch(lookup, guard);
  }

  async send({ url, headers, body }: WebhookRequest): Promise<AttemptOutcome> {
    this.client.load();
    const started = performance.now();
    const durationMs = () => Math.round(performance.now() - started);
    try {
      const response = await this.client.fetch(url, {
        method: 'POST',
        headers: { ...headers, 'user-agent': USER_AGENT },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      // The answer's body is not read: only its status counts, and a receiver may send anything.
      await response.body?.cancel().catch(() => {});
      return { kind: 'answered', status: response.status, durationMs: durationMs() };
    } catch (error) {
      return { kind: 'failed', reason: reasonOf(error, this.timeoutMs), durationMs: durationMs() };
    }
  }
}
