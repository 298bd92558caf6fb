import { networkHolds, parseNetwork, type IpAddress, type IpNetwork } from '../../domain/ip-address.js';
import type { AutonomousSystemRegistration, NetworkRegistration } from '../../domain/number-registration.js';
import type { NumberRegistrationResult, NumberRegistrationSource } from '../../domain/ports.js';

export interface MemoryNumberHoldings {
  /** The blocks a registry here serves (`193.0.0.0/8`), and AS number ranges; outside them there is no service. */
  readonly servedNetworks: readonly string[];
  readonly servedAsNumbers: readonly { readonly from: number; readonly to: number }[];
  /** Networks by CIDR: an address gets the most specific that holds it. */
  readonly networks: ReadonlyMap<string, NetworkRegistration>;
  /** AS blocks, each for the numbers from its start to its end. */
  readonly autonomousSystems: readonly AutonomousSystemRegistration[];
}

/** Registrations of numbers held in memory: for tests of the domain and for running without the network. */
export class MemoryNumberSource implements NumberRegistrationSource {
  private readonly served: readonly IpNetwork[];
  private readonly networks: readonly { readonly network: IpNetwork; readonly registration: NetworkRegistration }[];

  constructor(private readonly holdings: MemoryNumberHoldings) {
    this.served = holdings.servedNetworks.map((cidr) => parseNetwork(cidr)!);
    this.networks = [...holdings.networks].map(([cidr, registration]) => ({
      network: parseNetwork(cidr)!,
      registration,
    }));
  }

  async network(address: IpAddress): Promise<NumberRegistrationResult<NetworkRegistration>> {
    if (!this.served.some((network) => networkHolds(network, address))) return { kind: 'no-service' };
    const [best] = this.networks
      .filter(({ network }) => networkHolds(network, address))
      .sort((x, y) => y.network.prefixLength - x.network.prefixLength);
    return best === undefined ? { kind: 'not-found' } : { kind: 'found', registration: best.registration };
  }

  async autonomousSystem(asn: number): Promise<NumberRegistrationResult<AutonomousSystemRegistration>> {
    if (!this.holdings.servedAsNumbers.some(({ from, to }) => asn >= from && asn <= to)) return { kind: 'no-service' };
    const registration = this.holdings.autonomousSystems.find(
      ({ startAutnum, endAutnum }) =>
        startAutnum !== null && endAutnum !== null && asn >= startAutnum && asn <= endAutnum,
    );
    return registration === undefined ? { kind: 'not-found' } : { kind: 'found', registration };
  }
}
