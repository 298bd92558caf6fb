import { getDomain } from 'tldts';
import type { PublicSuffixes } from '../../domain/ports.js';

/**
 * The Public Suffix List as tldts bundles it, ICANN section only: a name under a private suffix
 * (`user.github.io`) is registered as `github.io`, which is what its registry knows.
 */
export class TldtsPublicSuffixes implements PublicSuffixes {
  registrableDomain(name: string): string | null {
    // Names have been checked already: tldts need not parse them as URLs or hosts again.
    return getDomain(name, { allowPrivateDomains: false, extractHostname: false, validateHostname: false });
  }
}
