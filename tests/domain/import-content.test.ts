import { expect } from 'chai';
import { importFileReader } from '../../src/families/content/adapters/content-files.js';
import { MemoryContentStore } from '../../src/families/content/adapters/memory-content-store.js';
import { ImportContent, type ImportProgress } from '../../src/families/content/domain/import-content.js';
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

  it('tells how far it has gone: records checked, then entries stored, each up to its total', async () => {
    const importContent = new ImportContent(new MemoryContentStore(), importFileReader, new ManualClock());
    const heard: ImportProgress[] = [];
    const lines = Array.from({ length: 2500 }, (_, i) => `Made-up line ${i % 2000}.`);
    const report = expectRight(
      await importContent.execute(
        'fact',
        'made-up',
        { content: `text\n${lines.join('\n')}\n`, format: 'csv' },
        (step) => heard.push(step),
      ),
    );
    expect(report).to.deep.include({ added: 2000, skipped: 500, refused: 0 });
    const checking = heard.filter((step) => step.phase === 'checking');
    expect(checking.map((step) => step.done)).to.deep.equal([0, 1000, 2000, 2500]);
    for (const step of checking) expect(step.total).to.equal(2500);
    // Only the first of each text is stored; the rest are skipped without being written.
    expect(heard.at(-1)).to.deep.equal({ phase: 'storing', done: 2000, total: 2000 });
    expect(heard.findIndex((step) => step.phase === 'storing')).to.equal(checking.length);
  });
});
