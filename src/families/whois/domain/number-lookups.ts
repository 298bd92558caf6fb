import * as E from 'fp-ts/lib/Either.js';
import type { CallContext } from '../../../domain/call-context.js';
import { invalidInput, missingInput, type DomainError } from '../../../domain/errors.js';
import type { Clock } from '../../../domain/ports.js';
import { outage, type RegistrationSettings } from './domain-lookups.js';
import { ExpiringCache } from './expiring-cache.js';
import { parseAsNumber, parseIpAddress, specialAsNumberOf, specialPurposeOf } from './ip-address.js';
import type { AutonomousSystemRegistration, NetworkRegistration } from './number-registration.js';
import type { NumberRegistrationResult, NumberRegistrationSource } from './ports.js';

/** The fields the number lookups are asked by. */
export const NUMBER_FIELDS = { address: 'address', asn: 'asn' } as const;

export interface NetworkQuery {
  readonly address?: string | undefined;
}

export interface AutonomousSystemQuery {
  readonly asn?: string | undefined;
}

/** The network an address belongs to, the address in its canonical form beside it. */
export type NetworkAnswer = { readonly address: string } & NetworkRegistration;

/** The block an AS number belongs to, the number asked beside it. */
export type AutonomousSystemAnswer = { readonly asn: number } & AutonomousSystemRegistration;

/** A result as the domain answers it: a registration, or why there is none, in words about `what`. */
function answerOf<R>(result: NumberRegistrationResult<R>, what: string): E.Either<DomainError, R> {
  switch (result.kind) {
    case 'found':
      return E.right(result.registration);
    case 'not-found':
      return E.left({ _tag: 'InformationNotFound', details: `The registry that serves ${what} does not know it` });
    case 'no-service':
      return E.left({
        _tag: 'InformationNotFound',
        details: `IANA's bootstrap file names no RDAP service for ${what}: no regional registry has been given it`,
      });
    case 'unavailable':
      return E.left(outage(result));
  }
}

/** Registrations are kept as a domain's are; a failure or a "not known" is asked again. */
const ttlOf =
  (ttlMs: number) =>
  (outcome: NumberRegistrationResult<unknown>): number =>
    outcome.kind === 'found' ? ttlMs : 0;

/** Who holds an IP address: the registry's network that holds it, over RDAP. */
export class LookUpIpNetwork {
  private readonly cache: ExpiringCache<NumberRegistrationResult<NetworkRegistration>>;

  constructor(
    private readonly source: NumberRegistrationSource,
    clock: Clock,
    private readonly settings: RegistrationSettings,
  ) {
    this.cache = new ExpiringCache(clock, settings.maxEntries);
  }

  async execute({ address }: NetworkQuery, context: CallContext = {}): Promise<E.Either<DomainError, NetworkAnswer>> {
    if (address === undefined) return E.left(missingInput(NUMBER_FIELDS.address));
    const parsed = parseIpAddress(address, NUMBER_FIELDS.address);
    if (E.isLeft(parsed)) return E.left(invalidInput(NUMBER_FIELDS.address, parsed.left));
    const ip = parsed.right;
    // Asked of no registry: nobody holds these blocks, and a registry's answer would be a placeholder at best.
    const special = specialPurposeOf(ip);
    if (special !== undefined)
      return E.left({
        _tag: 'InformationNotFound',
        details: `${ip.text} is in ${special.network}, ${special.what}: no registry publishes who holds it`,
      });
    const result = await this.cache.get(ip.text, () => this.source.network(ip, context), ttlOf(this.settings.ttlMs));
    return E.map((network: NetworkRegistration) => ({ address: ip.text, ...network }))(answerOf(result, `${ip.text}`));
  }
}

/** Who holds an autonomous system number, over RDAP. */
export class LookUpAutonomousSystem {
  private readonly cache: ExpiringCache<NumberRegistrationResult<AutonomousSystemRegistration>>;

  constructor(
    private readonly source: NumberRegistrationSource,
    clock: Clock,
    private readonly settings: RegistrationSettings,
  ) {
    this.cache = new ExpiringCache(clock, settings.maxEntries);
  }

  async execute(
    { asn }: AutonomousSystemQuery,
    context: CallContext = {},
  ): Promise<E.Either<DomainError, AutonomousSystemAnswer>> {
    if (asn === undefined) return E.left(missingInput(NUMBER_FIELDS.asn));
    const parsed = parseAsNumber(asn, NUMBER_FIELDS.asn);
    if (E.isLeft(parsed)) return E.left(invalidInput(NUMBER_FIELDS.asn, parsed.left));
    const number = parsed.right;
    const special = specialAsNumberOf(number);
    if (special !== undefined)
      return E.left({
        _tag: 'InformationNotFound',
        details: `AS${number} is in ${special.range}, ${special.what}: no registry publishes who holds it`,
      });
    const result = await this.cache.get(
      String(number),
      () => this.source.autonomousSystem(number, context),
      ttlOf(this.settings.ttlMs),
    );
    return E.map((registration: AutonomousSystemRegistration) => ({ asn: number, ...registration }))(
      answerOf(result, `AS${number}`),
    );
  }
}
