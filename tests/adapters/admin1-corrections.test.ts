import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin1CorrectionsFile, deriveAdmin1Corrections } from '../../scripts/derive-admin1-corrections.js';
import {
  ADMIN1_CORRECTIONS_FILE,
  readAdmin1Corrections,
} from '../../src/families/location/adapters/geonames/admin1-corrections.js';

describe('adapter: GeoNames region corrections', () => {
  it('are what the installed data packages give (after upgrading one, run scripts/derive-admin1-corrections.ts)', async function () {
    this.timeout(30_000);
    const committed = readFileSync(ADMIN1_CORRECTIONS_FILE, 'utf8');
    const derived = deriveAdmin1Corrections();
    // Vietnam's 2025 merger of provinces reassigned every code there: Hanoi's among them.
    expect(derived.get(1581130), 'Hanoi').to.equal('01');
    expect(committed).to.equal(admin1CorrectionsFile(derived));
    expect(await readAdmin1Corrections(), 'as the loader reads them').to.deep.equal(derived);
  });

  describe('a data file edited by hand into a wrong shape', () => {
    let folder: string;
    before(() => (folder = mkdtempSync(join(tmpdir(), 'admin1-corrections-'))));
    after(() => rmSync(folder, { recursive: true, force: true }));

    for (const [what, text, reason] of [
      ['without its corrections', '{"about": ""}', /holds no corrections/],
      [
        'with an id that is not a number',
        '{"about": "", "corrections": {"Hanoi": "01"}}',
        /"Hanoi" → "01" is not a GeoNames id/,
      ],
      [
        'with a code that is not text',
        '{"about": "", "corrections": {"1581130": 1}}',
        /"1581130" → 1 is not a GeoNames id/,
      ],
    ] as const) {
      it(`fails the load rather than naming regions wrongly: ${what}`, async () => {
        const file = join(folder, `${what}.json`);
        writeFileSync(file, text);
        let failure: unknown;
        await readAdmin1Corrections(file).catch((error: unknown) => (failure = error));
        expect(failure).to.be.instanceOf(Error);
        expect((failure as Error).message).to.match(reason);
      });
    }
  });
});
