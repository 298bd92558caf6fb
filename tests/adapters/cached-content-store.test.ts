import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import { CachedContentStore } from '../../src/families/content/adapters/cached-content-store.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { contentEntry, type ContentEntry } from '../../src/families/content/domain/content.js';
import { ManualClock } from '../support/manual-clock.js';

const quote = (text: string): ContentEntry => {
  const entry = contentEntry({ kind: 'quote', category: 'stoics', text }, 0, 'imported');
  if (E.isLeft(entry)) throw new Error(JSON.stringify(entry.left));
  return entry.right;
};

describe('adapters: CachedContentStore', () => {
  it('keeps what random answers read for its TTL: a write elsewhere shows once it has passed, one through it at once', async () => {
    const clock = new ManualClock();
    const inner = new MemoryContentStore();
    const cached = new CachedContentStore(inner, clock, 10_000);
    expect(await cached.count('quote', 'stoics')).to.equal(0);
    expect(await cached.categories('quote')).to.deep.equal([]);

    await inner.add([quote('Written by the CLI.')]);
    expect(await cached.count('quote', 'stoics'), 'within the TTL').to.equal(0);
    expect(await cached.categories('quote')).to.deep.equal([]);
    clock.advance(10_000);
    expect(await cached.count('quote', 'stoics'), 'once it has passed').to.equal(1);
    expect(await cached.categories('quote')).to.deep.equal([{ category: 'stoics', count: 1 }]);

    const through = quote('Written through the cache.');
    await cached.add([through]);
    expect(await cached.count('quote', 'stoics')).to.equal(2);
    await cached.delete(through.id);
    expect(await cached.count('quote', 'stoics')).to.equal(1);
  });

  it('keeps a listing’s page for its TTL, by its filters and position: a write elsewhere shows once it has passed, one through it at once', async () => {
    const clock = new ManualClock();
    const inner = new MemoryContentStore();
    const cached = new CachedContentStore(inner, clock, 10_000);
    const first = { kind: 'quote', limit: 20 } as const;
    const filtered = { kind: 'quote', words: ['cli'], limit: 20 } as const;
    expect(await cached.page(first)).to.deep.equal([]);
    expect(await cached.page(filtered)).to.deep.equal([]);

    const elsewhere = quote('Written by the CLI.');
    await inner.add([elsewhere]);
    expect(await cached.page(first), 'within the TTL').to.deep.equal([]);
    expect(await cached.page({ ...first, limit: 21 }), 'another page is read').to.deep.equal([elsewhere]);
    clock.advance(10_000);
    expect(await cached.page(first), 'once it has passed').to.deep.equal([elsewhere]);
    expect(await cached.page(filtered)).to.deep.equal([elsewhere]);

    const through = quote('Written through the cache.');
    await cached.add([through]);
    expect((await cached.page(first)).map((entry) => entry.text)).to.have.members([elsewhere.text, through.text]);
    await cached.delete(through.id);
    expect(await cached.page(first)).to.deep.equal([elsewhere]);
  });
});
