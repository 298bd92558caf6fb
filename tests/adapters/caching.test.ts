import { expect } from 'chai';
import { loadOnce } from '../../src/platform/caching/load-once.js';
import { LruCache } from '../../src/platform/caching/lru-cache.js';

describe('adapter: caching helpers', () => {
  it('LruCache forgets the least recently used entries beyond its budget, counting weights', () => {
    const cache = new LruCache<string, string>(3);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.set('c', 'C');
    expect(cache.get('a')).to.equal('A'); // a is now the most recently used
    cache.set('d', 'D');
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.size).to.deep.equal({ entries: 3, weight: 3 });
    cache.set('heavy', 'H', 2);
    expect([cache.get('c'), cache.get('a'), cache.get('d'), cache.get('heavy')]).to.deep.equal([
      undefined,
      undefined,
      'D',
      'H',
    ]);
    cache.set('too heavy', 'X', 4);
    expect(cache.get('too heavy')).to.equal(undefined);
    expect(cache.size).to.deep.equal({ entries: 2, weight: 3 });
  });

  it('loadOnce shares one load among concurrent callers and tries again after a failure', async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls += 1;
      if (calls === 1) throw new Error('first load fails');
      return calls;
    });
    const failures = await Promise.allSettled([load(), load()]);
    expect(failures.map((result) => result.status)).to.deep.equal(['rejected', 'rejected']);
    expect(calls).to.equal(1);
    expect(await Promise.all([load(), load()])).to.deep.equal([2, 2]);
    expect(await load()).to.equal(2);
    expect(calls).to.equal(2);
  });
});
