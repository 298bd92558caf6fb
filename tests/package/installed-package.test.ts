import { expect } from 'chai';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { CLIENT_MISTAKES, clientExample, misspeltExample } from '../support/client-example.js';
import { cleanEnv, ROOT } from '../support/program.js';

/**
 * Issue 12 §7: the package as a user installs it. `npm pack` makes the tarball (scripts skipped:
 * `npm run test:package` has just built dist/), which is unpacked into a scratch folder's
 * node_modules as `npm install` would, and plain JavaScript there imports it by its name.
 *
 * Its dependencies come from this project's node_modules, without the network: one link per
 * package the packed package.json lists under `dependencies`, and nothing else. A package the
 * code imports but does not list (a devDependency, say) is then missing there as it would be for
 * a user. Not part of `npm test` (packing and building take most of a minute): `.ci/run` runs it after.
 */
const run = promisify(execFile);

/** A TypeScript user's code, type-checked against the installed declarations, never run. */
const CONSUMER = `
import { buildUseCases, InvalidSettings } from 'utility-api';
import {
  CryptoPermission,
  knownPermissions,
  OPERATOR,
  Permission,
  type DomainError,
  type Place,
  type User,
} from 'utility-api/domain';
import { createHttpApp } from 'utility-api/http';

// Permission's type is read from the families' entries: it knows each name and no other.
const encrypt: 'Cryptography::Encrypt' = Permission.CryptographyEncrypt;
const metrics: Permission = Permission.SystemMetrics;
// @ts-expect-error no such permission
void Permission.CryptographyErase;
const first: Permission | undefined = knownPermissions[0];
const place: Place | undefined = undefined;
void [encrypt, metrics, first, place, CryptoPermission.CryptographyDecrypt];

const api = await buildUseCases({ families: ['crypto', 'usersAndTokens'], storage: 'memory' });
const encrypted = api.useCases.crypto.encryptText.execute('hello');
const answer: string | DomainError = encrypted._tag === 'Right' ? encrypted.right : encrypted.left;
const created = await api.useCases.usersAndTokens.createUser.execute({ actor: OPERATOR, username: 'ada' });
const user: User | undefined = created._tag === 'Right' ? created.right : undefined;
createHttpApp(api).callback();

const cryptoOnly = await buildUseCases({ families: ['crypto'] });
// @ts-expect-error usersAndTokens was not built
void cryptoOnly.useCases.usersAndTokens;
// @ts-expect-error the HTTP app needs usersAndTokens, which checks tokens
createHttpApp(cryptoOnly);
// @ts-expect-error no such family
void buildUseCases({ families: ['cryptography'] });
void [answer, user, InvalidSettings];
`;

interface PackedFile {
  readonly path: string;
  readonly size: number;
}

describe('the packed package, installed and used from plain JavaScript', function () {
  this.timeout(60_000);
  let scratch: string;
  let files: readonly PackedFile[];
  let manifest: {
    exports: Record<string, string | { types: string; default: string }>;
    dependencies: Record<string, string>;
  };

  before(async () => {
    expect(existsSync(join(ROOT, 'dist/index.js')), 'dist/ is built (npm run test:package builds it)').to.equal(true);
    scratch = mkdtempSync(join(tmpdir(), 'utility-api-package-'));
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: ROOT,
    });
    const [packed] = JSON.parse(stdout) as { filename: string; files: PackedFile[] }[];
    files = packed!.files;

    const installed = join(scratch, 'node_modules', 'utility-api');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', join(scratch, packed!.filename), '-C', installed, '--strip-components=1']);
    manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    for (const dependency of Object.keys(manifest.dependencies)) {
      const link = join(installed, 'node_modules', dependency);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(ROOT, 'node_modules', dependency)), link, 'dir');
    }
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    for (const script of ['example.mjs', 'entries.mjs', 'client.mjs'])
      copyFileSync(join(import.meta.dirname, script), join(scratch, script));
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const node = (script: string) => run(process.execPath, [script], { cwd: scratch, env: cleanEnv({}) });

  it('ships the built code, the console, the CLI, the default settings, the places’ snapshot and the changelog /api/changelog reads, and nothing else', () => {
    const outside = files
      .map((file) => file.path)
      .filter(
        (path) =>
          !/^(dist\/.+\.(js|d\.ts|json)|dist\/families\/location\/adapters\/geonames\/geonames\.snapshot|dist\/console\/(index\.html|assets\/[\w-]+\.css)|bin\/utility-api\.js|config\/\w+\.json|package\.json|README\.md|CHANGELOG\.yaml)$/.test(
            path,
          ),
      );
    expect(outside).to.deep.equal([]);
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : [target.types, target.default],
    );
    expect(
      targets
        .map((target) => target.replace(/^\.\//, ''))
        .filter((target) => !files.some((file) => file.path === target)),
    ).to.deep.equal([]);
    expect(files.map((file) => file.path)).to.include.members([
      'config/default.json',
      'dist/families/location/adapters/geonames/admin1-corrections.json',
      'dist/families/location/adapters/geonames/geonames.snapshot',
      'dist/families/content/adapters/bundled-facts.json',
      'dist/console/index.html',
      'CHANGELOG.yaml',
    ]);
  });

  it('runs the README example: crypto and token use cases on memory storage', async () => {
    const { stdout } = await node('example.mjs');
    expect(stdout).to.match(/^hello → \d+ characters → hello; ada's token may encrypt, not decrypt\n$/);
  });

  it("types a TypeScript user's code, from declarations that need no types but its dependencies' own", () => {
    const consumer = join(scratch, 'consumer.ts');
    writeFileSync(consumer, CONSUMER);
    // Library checks skipped for time (knex's and pino's declarations take most of half a minute);
    // the second assertion asks instead of each of our declaration files whether its imports have types.
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    const program = ts.createProgram([consumer], options);
    expect(
      ts
        .getPreEmitDiagnostics(program)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    ).to.deep.equal([]);

    // Node's own modules are declared by @types/node, which resolves no file for them.
    const ambient = new Set(
      program
        .getTypeChecker()
        .getAmbientModules()
        .map((module) => module.name.replace(/^"|"$/g, '')),
    );
    const ours = program.getSourceFiles().filter((file) => file.fileName.includes('/node_modules/utility-api/'));
    expect(ours.length).to.be.greaterThan(20);
    const untyped = ours.flatMap((file) =>
      ts
        .preProcessFile(file.text)
        .importedFiles.filter(
          ({ fileName }) =>
            !ambient.has(fileName) &&
            !ts.resolveModuleName(fileName, file.fileName, options, ts.sys).resolvedModule?.extension.startsWith('.d.'),
        )
        .map(({ fileName }) => `${file.fileName.slice(scratch.length)} imports ${fileName}`),
    );
    expect(untyped).to.deep.equal([]);
  });

  it('calls a server through utility-api/client: a password login, typed answers, a catalogue error, a failure', async () => {
    const seen = JSON.parse((await node('client.mjs')).stdout);
    expect(seen).to.deep.equal({
      encrypted: { ok: true, type: 'string', rateLimit: 'default' },
      refused: {
        status: 403,
        error: {
          code: 1,
          message: 'You are not authorized to access this resource',
          details: 'Missing permission Cryptography::Decrypt',
        },
      },
      anonymous: { status: 401, code: 3 },
      gone: 'network',
    });
  });

  it("types docs/client.md's example against utility-api/client's declarations, and refuses a misspelt name", () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules', '@types')],
    };
    const errorsOf = (source: string): string[] => {
      const file = join(scratch, 'client-example.ts');
      writeFileSync(file, source);
      return ts
        .getPreEmitDiagnostics(ts.createProgram([file], options))
        .map(
          (diagnostic) =>
            `${diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start!).line + 1 : '?'}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
        );
    };
    const example = clientExample();
    expect(example).to.include("from 'utility-api/client'");
    expect(errorsOf(example + CLIENT_MISTAKES)).to.deep.equal([]);
    const misspelt = errorsOf(misspeltExample(example));
    expect(misspelt).to.have.length.greaterThan(0);
    expect(misspelt.join('\n')).to.match(/'dat'/);
  });

  it('serves the built families over HTTP from utility-api/http, and keeps what is not exported out', async () => {
    const seen = JSON.parse((await node('entries.mjs')).stdout);
    expect(seen.deepImport.code).to.equal('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(seen.noKey).to.include({
      invalidSettings: true,
      message: 'Missing setting encryption.key: the crypto family needs base64 of 32 random bytes',
    });
    // The order is the families' own, not the order they were named in.
    expect(seen.families).to.deep.equal(['crypto', 'usersAndTokens']);
    expect(seen.encrypt.status).to.equal(200);
    expect(seen.encrypt.body).to.match(/^[A-Za-z0-9_-]+$/);
    expect(seen.decrypt).to.deep.equal({
      status: 403,
      body: JSON.stringify({
        code: 1,
        message: 'You are not authorized to access this resource',
        details: 'Missing permission Cryptography::Decrypt',
      }),
    });
    expect(seen.phone.status).to.equal(404);
    expect(JSON.parse(seen.phone.body).code).to.equal(22);
    expect(seen.closed).to.deep.equal({ stopFailures: [] });
    expect(seen.httpWithoutTokens.invalidSettings).to.equal(true);
  });
});
