import type { Logger } from 'pino';
import type { CallContext } from '../../../../domain/call-context.js';
import type { LookupFailure, RegistrationResult, RegistrationSource } from '../../domain/ports.js';
import type { OutboundGuard } from '../../../../platform/upstream/outbound-guard.js';
import { askPort43, type Port43Answer } from './port43.js';
import { isNoMatch, referralOf, registrationOf, whoisFields, type WhoisFields } from './whois-text.js';

export interface WhoisOptions {
  /** Where every question starts (`whois.iana.org`), `host` or `host:port`. */
  readonly server: string;
  /** The deadline of each server asked. */
  readonly timeoutMs: number;
}

export interface WhoisDependencies {
  /** What every server a referral names is connected through; the configured server is trusted as it is. */
  readonly guard: OutboundGuard;
  /** Hears of a registrar's server that failed, whose registry's answer is given instead. */
  readonly logger: Logger;
}

/** The referrals followed at most: the root's to the registry, the registry's to the registrar. */
const MAX_HOPS = 2;
/** Also the most `raw` carries. */
export const MAX_WHOIS_BYTES = 64 * 1024;

/**
 * Registration data over port-43 WHOIS: the root server (IANA's) names the TLD's server in a
 * `refer:` line, whose answer may name the registrar's (thin registries); each referral is
 * followed, two at most. The last server that answered about the domain is the one read. What a
 * server names is someone else's say: only the guard lets a referral be connected to.
 */
export class WhoisRegistrationSource implements RegistrationSource {
  constructor(
    private readonly options: WhoisOptions,
    private readonly dependencies: WhoisDependencies,
  ) {}

  async registration(domain: string, context: CallContext = {}): Promise<RegistrationResult> {
    const root = await this.ask(this.options.server, domain, 'trusted');
    if (root.kind !== 'answered') return this.failure(root, this.options.server);
    let answer = { server: this.options.server, text: root.text, fields: whoisFields(root.text) };
    for (let hops = 0; hops < MAX_HOPS; hops++) {
      const referral = referralOf(answer.fields);
      if (referral === undefined || referral.toLowerCase() === answer.server.toLowerCase()) break;
      const next = await this.ask(referral, domain, 'guarded');
      // A registrar's server failing leaves the registry's answer; the root's alone says nothing of the domain.
      if (next.kind !== 'answered') {
        if (hops === 0) return this.failure(next, referral);
        const reason = next.kind === 'timeout' ? `no answer within ${this.options.timeoutMs} ms` : next.reason;
        this.dependencies.logger.warn(
          { upstream: 'whois', server: referral, reason, requestId: context.requestId },
          'upstream call failed',
        );
        break;
      }
      if (hops > 0 && isNoMatch(next.text)) break;
      answer = { server: referral, text: next.text, fields: whoisFields(next.text) };
    }
    if (answer.text.trim() === '') return this.failure({ kind: 'failed', reason: 'answered nothing' }, answer.server);
    if (isNoMatch(answer.text)) return { kind: 'not-found' };
    // The root answered itself without a referral: it has no server to name for this TLD.
    if (answer.server === this.options.server && !saysAnythingOfADomain(answer.fields)) return { kind: 'no-service' };
    return { kind: 'found', registration: registrationOf(answer.fields, answer.server, answer.text) };
  }

  private ask(server: string, domain: string, trust: 'trusted' | 'guarded'): Promise<Port43Answer> {
    const guard = trust === 'guarded' ? this.dependencies.guard : undefined;
    return askPort43({ server, query: domain, deadlineMs: this.options.timeoutMs, maxBytes: MAX_WHOIS_BYTES, guard });
  }

  private failure(answer: Exclude<Port43Answer, { kind: 'answered' }>, server: string): LookupFailure {
    // The cause is what the log at the transport's edge shows: the one line about this failure.
    if (answer.kind === 'timeout') {
      const details = `The WHOIS server ${server} did not answer within ${this.options.timeoutMs} ms`;
      return { kind: 'unavailable', reason: 'timeout', details, cause: new Error(details) };
    }
    return {
      kind: 'unavailable',
      reason: 'failure',
      details: `The WHOIS server ${server} could not be used`,
      cause: answer.cause ?? new Error(`WHOIS server ${server} ${answer.reason}`),
    };
  }
}

/** Whether a server's answer describes a registered domain rather than, say, a TLD (IANA's answer about `.zz`). */
function saysAnythingOfADomain(fields: WhoisFields): boolean {
  return ['registrar', 'registry expiry date', 'creation date', 'name server', 'nserver', 'domain status'].some((key) =>
    fields.has(key),
  );
}
