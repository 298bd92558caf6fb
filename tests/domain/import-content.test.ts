import { expect } from 'chai';
import { importFileReader } from '../../src/families/content/adapters/content-files.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { ImportContent } from '../../src/families/content/domain/import-content.js';
import { expectRight } from '../support/either.js';
import { ManualClock } from '../support/manual-clock.js';

describe('domain: importing facts and quotes', () => {
  it('checks a file given as text as it checks one given as bytes: a lone surrogate refuses it whole, with its line and column', async () => {
    const store = new MemoryContentStore();
    const importContent = new ImportContent(store, importFileReader, new ManualClock());
    const refused = await importContent.execute('quote', 'library', {
      content: 'text\nfine\nhalf \ud83d of a pair\n',
      format: 'csv',
    });
    expect(refused).to.deep.include({
      left: {
        _tag: 'InvalidInput',
        fields: ['file'],
        reason:
          'line 3, column 6: U+D83D, one of the characters XML cannot carry (control characters other than tab and line breaks, U+FFFE, U+FFFF, lone surrogates); nothing was imported',
      },
    });
    expect(await store.list({})).to.deep.equal([]);
    expect(
      expectRight(await importContent.execute('quote', 'library', { content: 'text\nfine 😀\n', format: 'csv' })),
    ).to.deep.include({ added: 1, refused: 0 });
  });
});
