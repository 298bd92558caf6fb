import { expect } from 'chai';
import { expectError, serverForSuite } from '../support/http-server.js';

interface SenseNamed {
  lemma: string;
  partOfSpeech: string;
  definition: string;
}

interface Answer {
  word: string;
  lemmas: string[];
  definitions: (SenseNamed & { examples: string[] })[];
  pronunciations: { ipa: string; arpabet: string; partsOfSpeech: string[] }[];
  synonyms: string[];
  antonyms: string[];
  senses: (SenseNamed & { synonyms?: string[]; antonyms?: string[] })[];
}

describe('http: dictionary (WordNet 3.1)', () => {
  const suite = serverForSuite();
  let token: string;
  before(async () => {
    token = await suite.server.tokenFor(['Dictionary::*']);
  });
  const get = (path: string) => suite.server.get(path, { Authorization: `Bearer ${token}` });
  const answer = async (path: string): Promise<Answer> => {
    const response = await get(path);
    expect(response.status, path).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    return (await response.json()) as Answer;
  };

  it('answers the first requests, arriving together, all alike', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => get('/api/dictionary/def?word=goose')));
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const response of responses) expect(response.status).to.equal(200);
    for (const body of bodies) expect(body).to.deep.equal(bodies[0]);
  });

  it('defines a word: each sense with its lemma, part of speech, definition and examples', async () => {
    const hot = await answer('/api/dictionary/def?word=hot');
    expect(hot.word).to.equal('hot');
    expect(hot.lemmas).to.deep.equal(['hot']);
    expect(hot.definitions[0]).to.deep.equal({
      lemma: 'hot',
      partOfSpeech: 'adjective',
      definition:
        'used of physical heat; having a high or higher than desirable temperature or giving off heat or feeling or causing a sensation of heat or burning',
      examples: [
        'hot stove',
        'hot water',
        'a hot August day',
        'a hot stuffy room',
        "she's hot and tired",
        'a hot forehead',
      ],
    });
    const good = await answer('/api/dictionary/def?word=good');
    expect(new Set(good.definitions.map((d) => d.partOfSpeech))).to.deep.equal(
      new Set(['noun', 'adjective', 'adverb']),
    );
    expect(Object.keys(hot)).to.deep.equal(['word', 'lemmas', 'definitions', 'pronunciations']);
  });

  it('resolves irregular forms through the exception lists', async () => {
    const geese = await answer('/api/dictionary/def?word=geese');
    expect(geese.lemmas).to.deep.equal(['goose']);
    expect(geese.definitions[0]).to.deep.equal({
      lemma: 'goose',
      partOfSpeech: 'noun',
      definition:
        'web-footed long-necked typically gregarious migratory aquatic birds usually larger and less aquatic than ducks',
      examples: [],
    });
    expect((await answer('/api/dictionary/def?word=ran')).lemmas).to.deep.equal(['run']);
    const better = await answer('/api/dictionary/def?word=better');
    expect(better.lemmas).to.include('good').and.to.include('better');
    expect(better.definitions.some((d) => d.lemma === 'good' && d.partOfSpeech === 'adjective')).to.equal(true);
    expect((await answer('/api/dictionary/ant?word=better')).antonyms)
      .to.include('worse')
      .and.to.include('bad');
  });

  it('resolves regular inflections by the detachment rules', async () => {
    expect((await answer('/api/dictionary/def?word=cats')).lemmas).to.deep.equal(['cat']);
    expect((await answer('/api/dictionary/def?word=running')).lemmas).to.deep.equal(['running', 'run']);
    expect((await answer('/api/dictionary/def?word=walked')).lemmas).to.deep.equal(['walk']);
    expect((await answer('/api/dictionary/syn?word=increases')).lemmas).to.deep.equal(['increase']);
  });

  it('finds words of several words, whatever their case and spacing', async () => {
    const iceCream = await answer('/api/dictionary/def?word=Ice%20%20Cream');
    expect(iceCream.word).to.equal('ice cream');
    expect(iceCream.definitions).to.deep.equal([
      {
        lemma: 'ice cream',
        partOfSpeech: 'noun',
        definition: 'frozen dessert containing cream and sugar and flavoring',
        examples: [],
      },
    ]);
    expect(await answer('/api/dictionary/syn?word=ice+cream')).to.deep.equal({
      word: 'ice cream',
      lemmas: ['ice cream'],
      synonyms: ['icecream'],
      senses: [
        {
          lemma: 'ice cream',
          partOfSpeech: 'noun',
          definition: 'frozen dessert containing cream and sugar and flavoring',
          synonyms: ['icecream'],
        },
      ],
    });
    expect((await answer('/api/dictionary/def?word=ice%20creams')).lemmas).to.deep.equal(['ice cream']);
    expect((await answer('/api/dictionary/def?word=good%20looking')).lemmas).to.deep.equal(['good-looking']);
    expect((await answer('/api/dictionary/syn?word=well%20being')).lemmas).to.deep.equal(['well-being']);
  });

  it('lemmatises a phrase word by word, as morphy does: ran away → run away, looked up → look up', async () => {
    const ranAway = await answer('/api/dictionary/def?word=ran%20away');
    expect(ranAway.word).to.equal('ran away');
    expect(ranAway.lemmas).to.deep.equal(['run away']);
    expect(ranAway.definitions.every((d) => d.lemma === 'run away' && d.partOfSpeech === 'verb')).to.equal(true);
    expect((await answer('/api/dictionary/def?word=looked%20up')).lemmas).to.deep.equal(['look up']);
    expect((await answer('/api/dictionary/syn?word=Gave%20Up')).lemmas).to.deep.equal(['give up']);
    expect((await answer('/api/dictionary/def?word=looks%20after')).lemmas).to.deep.equal(['look after']);
  });

  it('leaves accents out when the word as written is not found: café → cafe, naïve → naive', async () => {
    const cafe = await answer(`/api/dictionary/def?word=${encodeURIComponent('café')}`);
    expect(cafe.word).to.equal('café');
    expect(cafe.lemmas).to.deep.equal(['cafe']);
    expect(cafe.definitions[0]!.definition).to.include('restaurant');
    expect((await answer(`/api/dictionary/syn?word=${encodeURIComponent('Naïve')}`)).lemmas).to.deep.equal(['naive']);
    // NFD input (e + combining acute) meets the same entry.
    expect((await answer(`/api/dictionary/ant?word=${encodeURIComponent('nai\u0308ve')}`)).lemmas).to.deep.equal([
      'naive',
    ]);
    expect((await answer(`/api/dictionary/def?word=${encodeURIComponent('cafés')}`)).lemmas).to.deep.equal(['cafe']);
    await expectError(await get(`/api/dictionary/def?word=${encodeURIComponent('xyzzé')}`), 404, 22);
  });

  it('gives synonyms, most frequent sense first, without the word itself', async () => {
    const hot = await answer('/api/dictionary/syn?word=hot');
    expect(hot.synonyms.slice(0, 2)).to.deep.equal(['heated', 'heated up']);
    expect(hot.synonyms).not.to.include('hot');
    expect(new Set(hot.synonyms).size).to.equal(hot.synonyms.length);
    expect((await answer('/api/dictionary/syn?word=big')).synonyms[0]).to.equal('large');
    expect(Object.keys(hot)).to.deep.equal(['word', 'lemmas', 'synonyms', 'senses']);
  });

  it('gives antonyms both ways: good/bad, hot/cold, increase/decrease', async () => {
    expect((await answer('/api/dictionary/ant?word=good')).antonyms)
      .to.include('bad')
      .and.to.include('evil');
    expect((await answer('/api/dictionary/ant?word=bad')).antonyms).to.include('good');
    const hot = await answer('/api/dictionary/ant?word=hot');
    expect(hot.antonyms).to.deep.equal(['cold']);
    expect(hot.senses.map((group) => [group.partOfSpeech, group.antonyms])).to.deep.equal([
      ['adjective', ['cold']],
      ['adjective', ['cold']],
    ]);
    expect((await answer('/api/dictionary/ant?word=cold')).antonyms).to.include('hot');
    expect((await answer('/api/dictionary/ant?word=increase')).antonyms).to.include('decrease');
    expect((await answer('/api/dictionary/ant?word=decrease')).antonyms).to.include('increase');
  });

  it("gives the antonyms of the other words of the word's synsets too", async () => {
    // good and goodness share two synsets; only goodness points to badness and evilness.
    expect((await answer('/api/dictionary/ant?word=good')).antonyms)
      .to.include('badness')
      .and.to.include('evilness');
    // cold shares its noun synset with coldness, which points to hotness.
    expect((await answer('/api/dictionary/ant?word=cold')).antonyms).to.include('hotness');
  });

  it("gives a satellite adjective its head's antonyms when it has none of its own, and an empty list when none apply", async () => {
    expect((await answer('/api/dictionary/ant?word=torrid')).antonyms).to.include('cold');
    expect(await answer('/api/dictionary/ant?word=ice%20cream')).to.deep.equal({
      word: 'ice cream',
      lemmas: ['ice cream'],
      antonyms: [],
      senses: [],
    });
  });

  it("orders senses across parts of speech by WordNet's sense counts: run starts with moving fast on foot", async () => {
    const run = await answer('/api/dictionary/def?word=run');
    expect(run.definitions[0]).to.deep.equal({
      lemma: 'run',
      partOfSpeech: 'verb',
      definition: "move fast by using one's feet, with one foot off the ground at any given time",
      examples: ["Don't run--you'll be out of breath", 'The children ran to the store'],
    });
    expect(run.definitions).to.have.length(57);
    expect(run.definitions.slice(0, 3).map((d) => d.partOfSpeech)).to.deep.equal(['verb', 'verb', 'verb']);
    // Never-counted senses keep WordNet's order within their part of speech.
    const nouns = run.definitions.filter((d) => d.partOfSpeech === 'noun').map((d) => d.definition);
    expect(nouns.indexOf('a race run on foot')).to.be.lessThan(nouns.indexOf('a short trip'));
  });

  it('keeps one part of speech (pos) and at most limit senses, in def, syn and ant', async () => {
    const nouns = await answer('/api/dictionary/def?word=run&pos=noun&limit=2');
    expect(nouns.definitions.map((d) => [d.partOfSpeech, d.definition])).to.deep.equal([
      ['noun', 'a score in baseball made by a runner touching all four bases safely'],
      ['noun', 'the act of testing something'],
    ]);
    const adverb = await answer('/api/dictionary/syn?word=fast&pos=adverb');
    expect(adverb.senses.every((group) => group.partOfSpeech === 'adverb')).to.equal(true);
    expect(adverb.synonyms).to.deep.equal(['tight']);
    const one = await answer('/api/dictionary/syn?word=big&limit=1');
    expect(one.senses).to.have.length(1);
    expect(one.synonyms).to.deep.equal(one.senses[0]!.synonyms);
    const noun = await answer('/api/dictionary/ant?word=good&pos=noun&limit=1');
    expect(noun.senses.map((group) => [group.partOfSpeech, group.antonyms])).to.deep.equal([
      ['noun', ['evil', 'evilness']],
    ]);
    expect((await answer('/api/dictionary/def?word=run&limit=100')).definitions).to.have.length(57);
    const missing = await expectError(await get('/api/dictionary/def?word=run&pos=adverb'), 404, 22);
    expect(missing.details).to.equal('The dictionary has no adverb "run"');
  });

  it('refuses a pos or limit it cannot read with 400/7, naming the parameter', async () => {
    for (const endpoint of ['def', 'syn', 'ant']) {
      for (const query of ['pos=Noun', 'pos=adj', 'pos=', 'pos=noun&pos=verb', 'pos=preposition']) {
        const body = await expectError(await get(`/api/dictionary/${endpoint}?word=run&${query}`), 400, 7);
        expect(body.details, query).to.include('pos');
      }
      for (const query of ['limit=0', 'limit=101', 'limit=-1', 'limit=1.5', 'limit=two', 'limit=', 'limit=01000']) {
        const body = await expectError(await get(`/api/dictionary/${endpoint}?word=run&${query}`), 400, 7);
        expect(body.details, query).to.include('limit');
      }
    }
  });

  it('groups synonyms and antonyms by sense with its part of speech and gloss, most frequent first', async () => {
    const big = await answer('/api/dictionary/syn?word=big');
    expect(big.senses[0]).to.include({
      lemma: 'big',
      partOfSpeech: 'adjective',
      definition: 'above average in size or number or quantity or magnitude or extent',
    });
    expect(big.senses[0]!.synonyms!.slice(0, 2)).to.deep.equal(['large', 'great']);
    expect(big.synonyms.slice(0, 2)).to.deep.equal(['large', 'great']);
    // A head adjective alone in its sense has the senses similar to it: quick before fasting.
    const fast = await answer('/api/dictionary/syn?word=fast');
    expect(fast.senses[0]!.definition).to.equal('acting or moving or capable of acting or moving quickly');
    expect(fast.senses[0]!.synonyms!.slice(0, 3)).to.deep.equal(['quick', 'speedy', 'rapid']);
    expect(fast.synonyms.indexOf('quick')).to.be.lessThan(fast.synonyms.indexOf('fasting'));
    // The flat list is every group's words once each, in the order of the groups.
    expect(fast.synonyms).to.deep.equal([...new Set(fast.senses.flatMap((group) => group.synonyms!))]);
    const antonyms = await answer('/api/dictionary/ant?word=big');
    expect(antonyms.senses.map((group) => [group.partOfSpeech, group.antonyms])).to.deep.equal([
      ['adjective', ['little', 'small']],
      ['adverb', ['small']],
    ]);
    expect(antonyms.antonyms).to.deep.equal(['little', 'small']);
  });

  it('says the word in IPA and ARPAbet, per part of speech where the stress tells noun from verb', async () => {
    expect((await answer('/api/dictionary/def?word=run')).pronunciations).to.deep.equal([
      { ipa: 'ɹʌn', arpabet: 'R AH1 N', partsOfSpeech: [] },
    ]);
    expect((await answer('/api/dictionary/def?word=record')).pronunciations).to.deep.equal([
      { ipa: 'ɹəˈkɔɹd', arpabet: 'R AH0 K AO1 R D', partsOfSpeech: ['verb'] },
      { ipa: 'ˈɹɛkɚd', arpabet: 'R EH1 K ER0 D', partsOfSpeech: ['noun'] },
      { ipa: 'ɹɪˈkɔɹd', arpabet: 'R IH0 K AO1 R D', partsOfSpeech: ['verb'] },
    ]);
    expect((await answer('/api/dictionary/def?word=record&pos=noun')).pronunciations).to.deep.equal([
      { ipa: 'ˈɹɛkɚd', arpabet: 'R EH1 K ER0 D', partsOfSpeech: ['noun'] },
    ]);
    expect((await answer('/api/dictionary/def?word=tomato')).pronunciations.map((p) => p.ipa)).to.deep.equal([
      'təˈmeɪˌtoʊ',
      'təˈmɑˌtoʊ',
    ]);
    expect((await answer('/api/dictionary/def?word=ice%20cream')).pronunciations).to.deep.equal([
      { ipa: 'aɪs kɹim', arpabet: 'AY1 S K R IY1 M', partsOfSpeech: [] },
    ]);
    // WordNet has it, the pronouncing dictionary does not.
    expect((await answer('/api/dictionary/def?word=icecream')).pronunciations).to.deep.equal([]);
  });

  it('answers a misspelling 404/22 with up to five suggestions, the closest and most used first', async () => {
    const expected: Record<string, string[]> = {
      recieve: ['receive', 'relieve', 'believe', 'revive', 'receiver'],
      definately: ['definitely', 'delicately', 'defiantly'],
      teh: ['ten', 'tsh', 'tea', 'tee', 'te'],
      accomodate: ['accommodate'],
    };
    for (const [word, suggestions] of Object.entries(expected)) {
      for (const endpoint of ['def', 'syn', 'ant']) {
        const body = await expectError(await get(`/api/dictionary/${endpoint}?word=${word}`), 404, 22);
        expect(body).to.deep.equal({
          code: 22,
          message: 'Unable to retrieve requested information',
          details: `The dictionary has no entry for "${word}"`,
          suggestions,
        });
      }
    }
    expect((await expectError(await get('/api/dictionary/def?word=xyzzyq'), 404, 22)).suggestions).to.deep.equal([]);
    const accented = await get(`/api/dictionary/def?word=${encodeURIComponent('cafféé')}`);
    expect((await expectError(accented, 404, 22)).suggestions).to.include('cafe');
  });

  it('keeps only the examples that use the word or one of its forms', async () => {
    // "flee" is shared with "escape", whose example says "escaped".
    const flee = (await answer('/api/dictionary/def?word=run')).definitions.find((d) =>
      d.definition.startsWith('flee;'),
    );
    expect(flee!.examples).to.deep.equal(['If you see this man, run!']);
    const car = await answer('/api/dictionary/def?word=car');
    expect(car.definitions[0]!.examples).to.deep.equal(['he needs a car to get to work']);
    const automobile = await answer('/api/dictionary/def?word=automobile');
    expect(automobile.definitions[0]!.definition).to.equal(car.definitions[0]!.definition);
    expect(automobile.definitions[0]!.examples).to.deep.equal([]);
    // Inflected forms count: "ran", "geese"; a phrase counts word by word.
    const ranAway = await answer('/api/dictionary/def?word=run%20away');
    expect(
      ranAway.definitions.flatMap((d) => d.examples).every((e) => /\b(run|ran|runs|running) away\b/i.test(e)),
    ).to.equal(true);
  });

  it('answers 404/22 for a word WordNet does not have', async () => {
    for (const endpoint of ['def', 'syn', 'ant']) {
      const body = await expectError(await get(`/api/dictionary/${endpoint}?word=xyzzyq`), 404, 22);
      expect(body.details).to.include('xyzzyq');
    }
  });

  it('answers 400/7 for what cannot be a word, naming the parameter; 400/6 without one', async () => {
    const notWords = [
      '12%23%24',
      '12345',
      '',
      '%20%20',
      'a'.repeat(65),
      'ice_cream',
      'a%2Fb',
      '%3Cscript%3E',
      'x%00y',
      '%F0%9F%98%80',
    ];
    for (const endpoint of ['def', 'syn', 'ant']) {
      for (const word of notWords) {
        const body = await expectError(await get(`/api/dictionary/${endpoint}?word=${word}`), 400, 7);
        expect(body.details, word).to.include('word');
      }
      await expectError(await get(`/api/dictionary/${endpoint}`), 400, 6);
      await expectError(await get(`/api/dictionary/${endpoint}?word=good&word=bad`), 400, 7);
    }
  });

  it('accepts 64 characters and letters of any script', async () => {
    await expectError(await get(`/api/dictionary/def?word=${'a'.repeat(64)}`), 404, 22);
    await expectError(await get(`/api/dictionary/def?word=${encodeURIComponent('ёжик')}`), 404, 22);
    expect((await answer(`/api/dictionary/def?word=${encodeURIComponent('O’Clock')}`)).lemmas).to.deep.equal([
      "o'clock",
    ]);
  });

  it('needs each endpoint’s own permission', async () => {
    const definitionsOnly = await suite.server.tokenFor(['Dictionary::Definitions']);
    const as = (path: string) => suite.server.get(path, { Authorization: `Bearer ${definitionsOnly}` });
    expect((await as('/api/dictionary/def?word=goose')).status).to.equal(200);
    await expectError(await as('/api/dictionary/syn?word=goose'), 403, 1);
    await expectError(await as('/api/dictionary/ant?word=goose'), 403, 1);
    await expectError(await suite.server.get('/api/dictionary/def?word=goose'), 401, 3);
  });
});
