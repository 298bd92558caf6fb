import { expect } from 'chai';
import { expectError, httpBackends, serverForSuite } from '../support/http-server.js';
import { ManualClock } from '../support/manual-clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

for (const backend of httpBackends) {
  describe(`http: token lifetimes (${backend.name})`, () => {
    const clock = new ManualClock(Date.now());
    const suite = serverForSuite(backend, { clock });

    it('takes expiresIn in hours, days and years as well as seconds', async () => {
      const me = await suite.server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt']);
      const asked: [unknown, number][] = [
        ['12h', 12 * HOUR],
        ['90d', 90 * DAY],
        ['1y', 365 * DAY],
        ['10y', 3650 * DAY],
        [600, 600_000],
      ];
      for (const [expiresIn, lifetime] of asked) {
        const response = await suite.server.send('POST', '/api/token/create', {
          token: me.secret,
          json: { expiresIn },
        });
        expect(response.status, String(expiresIn)).to.equal(201);
        const { expiresAt } = (await response.json()) as { expiresAt: string };
        expect(Date.parse(expiresAt), String(expiresIn)).to.equal(clock.now() + lifetime);
      }
    });

    it('refuses lifetimes beyond ten years, of no length or in no known unit with 400/11', async () => {
      const me = await suite.server.userWithToken(['Tokens::Create', 'Cryptography::Encrypt']);
      for (const expiresIn of ['11y', '0y', '1Y', '1yr', 'y', '1.5y', 0, 315_360_001]) {
        const response = await suite.server.send('POST', '/api/token/create', {
          token: me.secret,
          json: { expiresIn },
        });
        await expectError(response, 400, 11);
      }
    });
  });
}
