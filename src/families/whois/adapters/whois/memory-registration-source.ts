import type { RegistrationResult, RegistrationSource } from '../../domain/ports.js';
import type { Registration } from '../../domain/registration.js';

/**
 * Registrations held in memory: for tests of the domain and for running without the network.
 * It serves the TLDs given; a domain of another TLD has no service here.
 */
export class MemoryRegistrationSource implements RegistrationSource {
  constructor(
    private readonly registrations: ReadonlyMap<string, Registration> = new Map(),
    private readonly tlds: ReadonlySet<string> = new Set(
      [...registrations.keys()].map((domain) => domain.slice(domain.lastIndexOf('.') + 1)),
    ),
  ) {}

  async registration(domain: string): Promise<RegistrationResult> {
    if (!this.tlds.has(domain.slice(domain.lastIndexOf('.') + 1))) return { kind: 'no-service' };
    const registration = this.registrations.get(domain);
    return registration === undefined ? { kind: 'not-found' } : { kind: 'found', registration };
  }
}
