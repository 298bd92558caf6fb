import { expect } from 'chai';
import type { Clock } from '../../src/domain/ports.js';
import { SystemClock } from '../../src/platform/clock/system-clock.js';
import { ManualClock, SteppedClock } from '../support/manual-clock.js';

/**
 * What the domain takes from a Clock: milliseconds since 1970 as a whole number, and time passing
 * when it passes (not that it never goes back: the system's follows the wall clock, which an
 * operator or NTP may set back). The system's clock, and the tests' two that move when told
 * (ManualClock alone, SteppedClock on top of the system's).
 */
const clocks: { name: string; make: () => Clock; pass: (clock: Clock, ms: number) => Promise<void> }[] = [
  {
    name: 'system',
    make: () => new SystemClock(),
    pass: (_clock, ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  },
  { name: 'manual', make: () => new ManualClock(), pass: async (clock, ms) => (clock as ManualClock).advance(ms) },
  { name: 'stepped', make: () => new SteppedClock(), pass: async (clock, ms) => (clock as SteppedClock).advance(ms) },
];

for (const { name, make, pass } of clocks) {
  describe(`contract: Clock (${name})`, () => {
    it('tells the time as whole milliseconds since 1970, in this century', () => {
      const now = make().now();
      expect(Number.isSafeInteger(now)).to.equal(true);
      expect(now).to.be.within(Date.UTC(2000, 0, 1), Date.UTC(2100, 0, 1));
    });

    it('moves on when time passes', async () => {
      const clock = make();
      const before = clock.now();
      await pass(clock, 25);
      // A timer may fire up to a millisecond early by the wall clock.
      expect(clock.now() - before).to.be.at.least(24);
    });
  });
}
