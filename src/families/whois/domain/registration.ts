/** Who registered a domain, through whom, when, and how it is held, as its registry publishes it. */
export interface Registration {
  /** Where it came from: RDAP, the source of record, or port-43 WHOIS where a TLD has no RDAP. */
  readonly source: 'rdap' | 'whois';
  readonly registrar: Registrar | null;
  /** ISO 8601; null where the registry gives no date it can be read as. */
  readonly created: string | null;
  readonly updated: string | null;
  readonly expires: string | null;
  readonly status: readonly DomainStatus[];
  /** Lower case, without a trailing dot. */
  readonly nameservers: readonly string[];
  /** Whether the delegation is signed; null where the registry does not say. */
  readonly dnssec: boolean | null;
  /** As published: a field the registry redacts stays redacted, and nothing is guessed. */
  readonly registrant: Registrant | null;
  /** The RDAP domain object's URL (RDAP answers). */
  readonly rdapUrl?: string;
  /** The server that gave the answer, `host` or `host:port` (WHOIS answers). */
  readonly whoisServer?: string;
  /** The WHOIS server's text (WHOIS answers), at most 64 KiB. */
  readonly raw?: string;
}

export interface Registrar {
  readonly name: string | null;
  readonly ianaId: string | null;
  readonly url: string | null;
}

export interface Registrant {
  readonly organization: string | null;
  readonly country: string | null;
}

/** An EPP status code (`clientTransferProhibited`) with its readable text (`client transfer prohibited`). */
export interface DomainStatus {
  readonly code: string;
  readonly description: string;
}

/**
 * EPP domain status codes (RFC 5731, 3915) and the words RDAP uses for them (RFC 8056 §2), plus
 * the statuses only RDAP has (RFC 9083 §10.2.2).
 */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  ok: 'active',
  inactive: 'inactive',
  addPeriod: 'add period',
  autoRenewPeriod: 'auto renew period',
  renewPeriod: 'renew period',
  transferPeriod: 'transfer period',
  redemptionPeriod: 'redemption period',
  pendingCreate: 'pending create',
  pendingDelete: 'pending delete',
  pendingRenew: 'pending renew',
  pendingRestore: 'pending restore',
  pendingTransfer: 'pending transfer',
  pendingUpdate: 'pending update',
  clientDeleteProhibited: 'client delete prohibited',
  clientHold: 'client hold',
  clientRenewProhibited: 'client renew prohibited',
  clientTransferProhibited: 'client transfer prohibited',
  clientUpdateProhibited: 'client update prohibited',
  serverDeleteProhibited: 'server delete prohibited',
  serverHold: 'server hold',
  serverRenewProhibited: 'server renew prohibited',
  serverTransferProhibited: 'server transfer prohibited',
  serverUpdateProhibited: 'server update prohibited',
  validated: 'validated',
  locked: 'locked',
  associated: 'associated',
  removed: 'removed',
  obscured: 'obscured',
  private: 'private',
  proxy: 'proxy',
  redacted: 'redacted',
};

const CODE_BY_LOWER_CASE = new Map(Object.keys(STATUS_WORDS).map((code) => [code.toLowerCase(), code]));
const CODE_BY_WORDS = new Map(Object.entries(STATUS_WORDS).map(([code, words]) => [words, code]));

/**
 * A status as a registry writes it, as an EPP code (WHOIS: `clientTransferProhibited
 * https://icann.org/epp#…`) or in RDAP's words (`client transfer prohibited`). One neither
 * knows is kept as written, in both fields.
 */
export function domainStatus(written: string): DomainStatus {
  const text = written.trim().replace(/\s+/g, ' ');
  const firstWord = text.split(' ')[0] ?? '';
  const code = CODE_BY_WORDS.get(text.toLowerCase()) ?? CODE_BY_LOWER_CASE.get(firstWord.toLowerCase());
  return code === undefined ? { code: text, description: text } : { code, description: STATUS_WORDS[code]! };
}

/** A date as a registry writes it, in ISO 8601 (UTC); null when it cannot be read as a date for certain. */
export function isoDate(written: string | undefined | null): string | null {
  if (written === undefined || written === null) return null;
  const text = written.trim();
  // Only forms that read one way: ISO 8601 (`2024-01-31`, `2024-01-31T10:00:00Z`, `2024-01-31 10:00:00`) and `31-Jan-2024`.
  const iso =
    /^(\d{4})[-.](\d{2})[-.](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i.exec(
      text,
    );
  const named = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/.exec(text);
  let milliseconds: number;
  if (iso) {
    const [, year, month, day, hours = '00', minutes = '00', seconds = '00', zone = 'Z'] = iso;
    const offset = /^(?:Z|UTC)$/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
    milliseconds = Date.parse(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}${offset}`);
    if (!Number.isNaN(milliseconds) && new Date(milliseconds).getUTCDate() !== Number(day) && offset === 'Z')
      return null;
  } else if (named) {
    const [, day, month, year] = named;
    const index = MONTHS.indexOf(month!.toLowerCase());
    if (index < 0) return null;
    milliseconds = Date.UTC(Number(year), index, Number(day));
    if (new Date(milliseconds).getUTCDate() !== Number(day)) return null;
  } else {
    return null;
  }
  return Number.isNaN(milliseconds) ? null : new Date(milliseconds).toISOString();
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
