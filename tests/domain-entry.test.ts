import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { permissionCatalogueOf } from '../src/composition/families.js';
import { knownPermissions, Permission } from '../src/domain/index.js';

const SRC = resolve(import.meta.dirname, '..', 'src');
const PACKAGE_DOMAIN_ENTRY = join(SRC, 'domain', 'index.ts');
const familyEntries = readdirSync(join(SRC, 'families'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(SRC, 'families', entry.name, 'domain', 'index.ts'));

/**
 * The package's `utility-api/domain` entry gathers the families' public domain entries with
 * `export *` lines, which give up a name two entries both export, and any name the entry's own
 * words already hold, without a word: the compiler's own reading of the modules tells whether
 * every family word still reaches library users.
 */
describe('the package’s domain entry: every family’s public words under their own names', () => {
  it('exports every name each family’s public entry exports, as that very declaration', function () {
    this.timeout(30_000);
    // Node's and the test runner's types are not needed to follow the exports: leaving them out halves the time.
    const program = ts.createProgram([PACKAGE_DOMAIN_ENTRY, ...familyEntries], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      types: [],
      noEmit: true,
    });
    const checker = program.getTypeChecker();
    /** A module's exports by name, each followed to the declaration it names. */
    const exportsOf = (file: string): Map<string, ts.Symbol> => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      return new Map(
        checker
          .getExportsOfModule(module)
          .map((symbol) => [
            symbol.name,
            symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
          ]),
      );
    };
    const gathered = exportsOf(PACKAGE_DOMAIN_ENTRY);
    const lost = familyEntries.flatMap((entry) =>
      [...exportsOf(entry)]
        .filter(([name, declaration]) => gathered.get(name) !== declaration)
        .map(([name]) => `${name} of ${entry.slice(SRC.length + 1)}`),
    );
    expect(gathered.size).to.be.greaterThan(150);
    expect(lost).to.deep.equal([]);
  });

  it('Permission holds every permission the families’ descriptors name, and the platform’s, each once', () => {
    expect([...knownPermissions].sort()).to.deep.equal([...permissionCatalogueOf().known].sort());
    expect(Permission.CryptographyEncrypt).to.equal('Cryptography::Encrypt');
    expect(Permission.SystemMetrics).to.equal('System::Metrics');
  });
});
