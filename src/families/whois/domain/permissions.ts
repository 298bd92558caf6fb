/** The permissions of the whois family: what its routes and use cases ask of who calls them. */
export const WhoisPermission = {
  WhoisDns: 'Whois::DNS',
  WhoisWhois: 'Whois::Whois',
  WhoisFull: 'Whois::Full',
  WhoisIp: 'Whois::IP',
  WhoisAsn: 'Whois::ASN',
} as const;
