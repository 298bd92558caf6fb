import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { admin1CorrectionsModule, deriveAdmin1Corrections } from '../../scripts/derive-admin1-corrections.js';

describe('adapter: GeoNames region corrections', () => {
  it('are what the installed data packages give (after upgrading one, run scripts/derive-admin1-corrections.ts)', function () {
    this.timeout(30_000);
    const committed = readFileSync(new URL('../../src/adapters/geonames/admin1-corrections.ts', import.meta.url), 'utf8');
    const derived = deriveAdmin1Corrections();
    // Vietnam's 2025 merger of provinces reassigned every code there: Hanoi's among them.
    expect(derived.get(1581130), 'Hanoi').to.equal('01');
    expect(committed).to.equal(admin1CorrectionsModule(derived));
  });
});
