import { expect } from 'chai';
import { serverForSuite } from '../support/http-server.js';
import { EXPECTED_FIRST_ANSWERS } from './dictionary-expectations.js';

interface Group {
  partOfSpeech: string;
  definition: string;
  synonyms?: string[];
  antonyms?: string[];
}

describe('http: dictionary, the first answers a person expects (issue 30 table)', () => {
  const suite = serverForSuite();
  let token: string;
  before(async () => {
    token = await suite.server.tokenFor(['Dictionary::*']);
  });
  const body = async (path: string): Promise<Record<string, unknown>> => {
    const response = await suite.server.get(path, { Authorization: `Bearer ${token}` });
    expect(response.status, path).to.equal(200);
    return (await response.json()) as Record<string, unknown>;
  };

  it('has at least 40 words', () => {
    expect(EXPECTED_FIRST_ANSWERS.length).to.be.at.least(40);
  });

  for (const expected of EXPECTED_FIRST_ANSWERS) {
    it(`${expected.word}: ${expected.partOfSpeech} "${expected.definitionStart}…"`, async () => {
      const word = encodeURIComponent(expected.word);
      const def = await body(`/api/dictionary/def?word=${word}`);
      const first = (def.definitions as Group[])[0]!;
      expect(first.partOfSpeech).to.equal(expected.partOfSpeech);
      expect(first.definition.startsWith(expected.definitionStart), first.definition).to.equal(true);
      expect((def.pronunciations as { ipa: string }[])[0]?.ipa).to.equal(expected.ipa);
      if (expected.synonym !== null) {
        const syn = await body(`/api/dictionary/syn?word=${word}`);
        expect((syn.senses as Group[])[0]!.synonyms).to.include(expected.synonym);
      }
      if (expected.antonym !== null) {
        const ant = await body(`/api/dictionary/ant?word=${word}`);
        expect((ant.antonyms as string[])[0]).to.equal(expected.antonym);
      }
    });
  }
});
