import { expect } from 'chai';
import { MemoryContentSource, type ScriptedAnswer } from '../../src/families/content/adapters/memory-content-source.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { OFF_SOURCE } from '../../src/families/content/adapters/upstream-sources.js';
import { LiveContent, RandomContent, type Feed } from '../../src/families/content/domain/content-queries.js';
import type { ContentSource } from '../../src/families/content/domain/ports.js';
import { expectLeftTag, expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';
import { SeededRandomness } from '../support/seeded-randomness.js';

const FEED: Feed = {
  kind: 'quote',
  category: 'kanye',
  author: 'Kanye West',
  source: 'api.kanye.rest',
  title: 'Kanye West quotes',
};

describe('domain: a live category (facts and quotes from an upstream, kept as they come)', () => {
  let store: MemoryContentStore;
  let clock: ManualClock;
  const liveFrom = (source: ContentSource) =>
    new LiveContent(FEED, source, store, new RandomContent(store, new SeededRandomness('live')), clock);
  const scripted = (...script: ScriptedAnswer[]) => liveFrom(new MemoryContentSource(script));
  beforeEach(() => {
    store = new MemoryContentStore();
    clock = new ManualClock();
  });

  it('answers what the upstream gives, fresh, as an entry of the feed, and keeps it in the store', async () => {
    const served = expectRight(await scripted('  A quote from upstream.  ').execute());
    expect(served.provenance).to.equal('fresh');
    expect(served.entry).to.deep.include({
      kind: 'quote',
      category: 'kanye',
      text: 'A quote from upstream.',
      author: 'Kanye West',
      source: 'api.kanye.rest',
      createdAt: clock.now(),
    });
    expect(await store.nth('quote', 'kanye', 0)).to.deep.equal(served.entry);
  });

  it('keeps a text the upstream gives twice once, under the same id', async () => {
    const live = scripted('Said twice.', 'Said twice.');
    const first = expectRight(await live.execute());
    clock.advance(60_000);
    const second = expectRight(await live.execute());
    expect(second.entry.id).to.equal(first.entry.id);
    expect(await store.count('quote', 'kanye')).to.equal(1);
  });

  it('answers one of those kept, as stale, when the upstream fails or is too slow, and keeps nothing more', async () => {
    const live = scripted('Kept from before.', { unavailable: 'failure' }, { unavailable: 'timeout' });
    const kept = expectRight(await live.execute()).entry;
    expect(await live.execute()).to.deep.equal({ _tag: 'Right', right: { entry: kept, provenance: 'stale' } });
    expect(await live.execute()).to.deep.equal({ _tag: 'Right', right: { entry: kept, provenance: 'stale' } });
    expect(await store.count('quote', 'kanye')).to.equal(1);
  });

  it('answers one of those kept, as stored, when its upstream is turned off', async () => {
    const kept = expectRight(await scripted('Kept while it was on.').execute()).entry;
    expect(await liveFrom(OFF_SOURCE).execute()).to.deep.equal({
      _tag: 'Right',
      right: { entry: kept, provenance: 'stored' },
    });
  });

  it('with none kept, answers the upstream’s failure, its timeout, or, when it is off, how to import some', async () => {
    expect(expectLeftTag(await scripted({ unavailable: 'failure' }).execute(), 'UpstreamUnavailable')).to.deep.equal({
      _tag: 'UpstreamUnavailable',
      details: 'Kanye West quotes: the upstream could not be reached and none are stored',
    });
    expect(expectLeftTag(await scripted({ unavailable: 'timeout' }).execute(), 'UpstreamTimeout')).to.deep.equal({
      _tag: 'UpstreamTimeout',
      details: 'Kanye West quotes: the upstream did not answer in time and none are stored',
    });
    expect(expectLeftTag(await liveFrom(OFF_SOURCE).execute(), 'InformationNotFound')).to.deep.equal({
      _tag: 'InformationNotFound',
      details:
        'Kanye West quotes are turned off here and none are stored; import some with: npx utility-api content import FILE --kind quote --category kanye',
    });
  });

  it('keeps only the feed’s own category: entries of another are never answered for it', async () => {
    await store.add([
      {
        id: 'other',
        kind: 'quote',
        category: 'ronswanson',
        text: 'Of another feed.',
        author: 'Ron Swanson',
        source: 'ron-swanson-quotes.herokuapp.com',
        createdAt: clock.now(),
      },
    ]);
    expectLeftTag(await scripted({ unavailable: 'failure' }).execute(), 'UpstreamUnavailable');
  });
});
