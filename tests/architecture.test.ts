import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every script below `dir`, TypeScript or JavaScript. */
function scriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? scriptFiles(join(dir, entry.name))
      : /\.[cm]?[jt]s$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/**
 * Where a text looks something up in a container (service location), as `line: text` from 1: a
 * `get`, `getAll`, `getAsync` or `getAllAsync` on a container (whatever it is called, `app.container`
 * or `testContainer`) or on a resolution context, its chain broken over lines or not.
 */
function lookupsIn(text: string): string[] {
  const lookup = /\b\w*(?:container|Container|context)\s*\??\.\s*get(?:All)?(?:Async)?\s*[<(]/g;
  return [...text.matchAll(lookup)].map((match) => {
    const line = text.slice(0, match.index).split('\n').length;
    return `${line}: ${text.split('\n')[line - 1]!.trim()}`;
  });
}

/** Every module specifier a file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
    ),
  ];
  return specifiers.map((m) => m[1] ?? m[2] ?? m[3]!);
}

/**
 * The string literals of a source text (quoted and template), comments left out: a comment may
 * say where a field comes from, code may not. Read left to right, so that a quote inside a
 * comment or `//` inside a string is taken for what it is.
 */
function stringLiterals(text: string): string[] {
  const tokens = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;
  return [...text.matchAll(tokens)].map((match) => match[0]).filter((token) => !token.startsWith('/'));
}

/** A header name as HTTP clients send the non-standard ones (`x-domain`, `X-Coords`), inside a literal. */
const HEADER_NAME = /(?<![\w-])x-[a-z0-9]+(?:-[a-z0-9]+)*/gi;

/** The header names the string literals of `text` hold. */
const headerNamesIn = (text: string): string[] =>
  stringLiterals(text).flatMap((literal) => [...literal.matchAll(HEADER_NAME)].map((match) => match[0]));

/** Node modules that reach outside the process (network, files, processes) have no place in the domain. */
const IMPURE_NODE = new Set([
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'dns',
  'child_process',
  'cluster',
  'dgram',
  'tls',
  'worker_threads',
]);
const DOMAIN_MAY_IMPORT = (specifier: string): boolean => {
  if (specifier.startsWith('.')) return true; // checked separately: must stay inside src/domain
  if (specifier.startsWith('node:')) return !IMPURE_NODE.has(specifier.slice('node:'.length));
  return specifier === 'fp-ts' || specifier.startsWith('fp-ts/');
};

/**
 * What the client's files may import: each other, and openapi-fetch, the one library it is built on.
 * It runs in browsers, so nothing of the server, no framework and no node: module.
 */
const CLIENT_MAY_IMPORT = (file: string, specifier: string): boolean =>
  specifier.startsWith('.')
    ? segments(relative(SRC, resolve(file, '..', specifier)))[0] === 'client'
    : specifier === 'openapi-fetch';

/**
 * What the console's files (src/console/, a page bundled for browsers) may import: each other,
 * the client (its only way to the server: nothing the API cannot do), its view library and its
 * charts. Nothing of the server, no node: module.
 */
const CONSOLE_MAY_IMPORT = (file: string, specifier: string): boolean =>
  specifier.startsWith('.')
    ? ['console', 'client'].includes(segments(relative(SRC, resolve(file, '..', specifier)))[0]!)
    : /^(preact|uplot)(\/|$)/.test(specifier);

/** The console's source, scripts and components alike (.ts and .tsx). */
const consoleFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? consoleFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );

/** Where a file stands in the layout, by its path below src/. */
type Place =
  | { readonly kind: 'shared domain' }
  | { readonly kind: 'family domain'; readonly family: string }
  | { readonly kind: 'family'; readonly family: string }
  | { readonly kind: 'platform' }
  | { readonly kind: 'composition' }
  | { readonly kind: 'wiring' }
  | { readonly kind: 'entry' };

/**
 * The package's `utility-api/domain` entry: its shared words (index.ts) and its file of one
 * `export *` line per family's public domain entry (family-entries.ts), which index.ts gathers.
 */
const PACKAGE_DOMAIN_ENTRY = join('domain', 'index.ts');
const FAMILY_ENTRIES = join('domain', 'family-entries.ts');
const isPackageDomainEntry = (path: string): boolean => path === PACKAGE_DOMAIN_ENTRY || path === FAMILY_ENTRIES;

function placeOf(path: string): Place {
  const [top, family, below] = segments(path);
  // The package's `utility-api/domain` entry gathers every family's public words: an entry, not the shared domain.
  if (isPackageDomainEntry(path)) return { kind: 'entry' };
  if (top === 'domain') return { kind: 'shared domain' };
  if (top === 'families' && path !== join('families', 'index.ts'))
    return below === 'domain' ? { kind: 'family domain', family: family! } : { kind: 'family', family: family! };
  if (top === 'platform') return { kind: 'platform' };
  // What a family's module and descriptor are written with (service identifiers, typed bindings, the
  // descriptor's shape): the composition's, kept apart from it so that no family imports the composition.
  if (top === 'wiring') return { kind: 'wiring' };
  if (top === 'composition' || path === 'container.ts' || path === join('families', 'index.ts'))
    return { kind: 'composition' };
  return { kind: 'entry' };
}

/** A family's own composition: its module (the one file that knows its concrete classes and the container) and its descriptor. */
const isFamilyModule = (path: string): boolean =>
  segments(path)[0] === 'families' &&
  segments(path).length === 3 &&
  (path.endsWith('-module.ts') || segments(path)[2] === 'family.ts');

/** The composition root: src/container.ts, src/composition, the wiring kit and each family's module. */
const isCompositionRoot = (path: string): boolean =>
  placeOf(path).kind === 'composition' || placeOf(path).kind === 'wiring' || isFamilyModule(path);

/** A family's public domain entry, the only door another family may use. */
const isPublicDomainEntry = (path: string): boolean =>
  segments(path)[0] === 'families' &&
  segments(path)[2] === 'domain' &&
  segments(path).length === 4 &&
  path.endsWith('index.ts');

/** The path below src/ that a relative specifier of `file` names, with `.js` read as the `.ts` it is built from. */
const targetOf = (file: string, specifier: string): string =>
  relative(SRC, resolve(file, '..', specifier)).replace(/\.js$/, '.ts');
const segments = (path: string): string[] => path.split(sep);

/** Why an import from `from` to `to` (paths below src/) breaks the layout's rules, if it does. */
function layoutOffence(from: string, to: string): string | undefined {
  const source = placeOf(from);
  const target = placeOf(to);
  const refuse = (why: string): string => `${from} imports ${to}: ${why}`;
  const ownFamily = 'family' in source && 'family' in target && source.family === target.family;
  const otherFamilysDoor = 'family' in target && !ownFamily && isPublicDomainEntry(to);
  switch (source.kind) {
    case 'shared domain':
      return target.kind === 'shared domain' ? undefined : refuse('the shared domain imports only itself');
    case 'family domain':
      if (target.kind === 'shared domain' || otherFamilysDoor) return undefined;
      if (target.kind === 'family domain' && ownFamily) return undefined;
      return refuse(
        "a family's domain imports its own domain, the shared domain and other families' public domain entries",
      );
    case 'family':
      if (target.kind === 'shared domain' || target.kind === 'platform' || ownFamily || otherFamilysDoor)
        return undefined;
      if (isFamilyModule(from) && target.kind === 'wiring') return undefined;
      // Weather binds the gazetteer the way location's module does; nothing in a family imports the composition.
      if (isFamilyModule(from) && isFamilyModule(to)) return undefined;
      if (segments(to)[0] === 'config') return undefined;
      return refuse('a family reaches another family only through its public domain entry');
    case 'platform':
      if (target.kind === 'shared domain' || target.kind === 'platform' || segments(to)[0] === 'config')
        return undefined;
      return refuse('the platform imports no family and no composition');
    case 'wiring':
      return target.kind === 'shared domain' || target.kind === 'platform' || target.kind === 'wiring'
        ? undefined
        : refuse('the wiring kit imports no family and no composition');
    case 'composition':
      return undefined;
    case 'entry':
      // The package's domain entry is still the domain: it gathers domain words, no platform or
      // adapter, and reaches each family as other families do, through its public domain entry.
      if (!isPackageDomainEntry(from)) return undefined;
      return target.kind === 'shared domain' || isPublicDomainEntry(to) || isPackageDomainEntry(to)
        ? undefined
        : refuse('the package’s domain entry gathers the shared domain and the families’ public domain entries');
  }
}

/** The modules a text re-exports whole, one `export * from '…'` line each. */
const starExportsOf = (text: string): string[] =>
  [...text.matchAll(/^export \* from ['"]([^'"]+)['"];$/gm)].map((match) => match[1]!);

/**
 * What keeps a family's words from library users, if anything: a family folder with no public
 * domain entry, or an entry the package's domain entry does not gather exactly once; and a line
 * there for a family that has no folder. `gathered` holds the paths below src/ of what
 * family-entries.ts re-exports whole.
 */
function familyEntryOffences(
  families: readonly string[],
  hasEntry: (family: string) => boolean,
  gathered: readonly string[],
): string[] {
  const entryOf = (family: string): string => join('families', family, 'domain', 'index.ts');
  const missing = families.flatMap((family) => {
    if (!hasEntry(family)) return [`${family} has no public domain entry, src/${entryOf(family)}`];
    const lines = gathered.filter((path) => path === entryOf(family)).length;
    if (lines === 0)
      return [`src/${FAMILY_ENTRIES} does not gather ${family}: add export * from its src/${entryOf(family)}`];
    return lines === 1 ? [] : [`src/${FAMILY_ENTRIES} gathers src/${entryOf(family)} ${lines} times, not once`];
  });
  const strays = gathered
    .filter((path) => !families.some((family) => path === entryOf(family)))
    .map((path) => `src/${FAMILY_ENTRIES} gathers src/${path}, which is no family's public domain entry`);
  return [...missing, ...strays];
}

/** Why a route file's import is refused, if it is: routes know the domain and the platform, never an adapter. */
function routeOffence(from: string, to: string): string | undefined {
  if (!from.endsWith('-routes.ts') || segments(from)[0] !== 'families') return undefined;
  return segments(to).includes('adapters') ? `${from} imports ${to}, an adapter` : undefined;
}

describe('architecture: dependencies point inward', () => {
  const CONSOLE_DIR = join(SRC, 'console');
  /** The server's files: the console is a browser page of its own, held to its own rule below. */
  const allFiles = sourceFiles(SRC).filter((file) => !file.startsWith(CONSOLE_DIR + sep));
  const below = (file: string): string => relative(SRC, file);
  /** The shared domain and every family's domain: the files that must stay free of frameworks and I/O. */
  const domainFiles = allFiles.filter((file) => {
    const place = placeOf(below(file));
    return place.kind === 'shared domain' || place.kind === 'family domain';
  });
  const familyNames = readdirSync(join(SRC, 'families'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('finds the domain files and the families it checks', () => {
    expect(domainFiles.length).to.be.greaterThan(40);
    expect(familyNames).to.include.members(['crypto', 'users-and-tokens', 'mail', 'weather', 'whois']);
    for (const family of familyNames)
      expect(sourceFiles(join(SRC, 'families', family, 'domain')), family).to.have.length.greaterThan(0);
  });

  it('every domain (shared and each family’s) imports no framework, database driver, container or I/O module', () => {
    const offences = domainFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !DOMAIN_MAY_IMPORT(specifier))
        .map((specifier) => `${below(file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('each import keeps the layout: a family’s domain knows only itself, the shared domain and other families’ public entries; a family reaches another only through that entry; the platform knows no family', () => {
    const offences = allFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .flatMap((specifier) => layoutOffence(below(file), targetOf(file, specifier)) ?? []),
    );
    expect(offences).to.deep.equal([]);
  });

  it('every family has its public domain entry, and the package’s domain entry gathers each with one export * line', () => {
    const gathered = starExportsOf(readFileSync(join(SRC, FAMILY_ENTRIES), 'utf8')).map((specifier) =>
      targetOf(join(SRC, FAMILY_ENTRIES), specifier),
    );
    const offences = familyEntryOffences(
      familyNames,
      (family) => existsSync(join(SRC, 'families', family, 'domain', 'index.ts')),
      gathered,
    );
    expect(offences).to.deep.equal([]);
    expect(
      starExportsOf(readFileSync(join(SRC, PACKAGE_DOMAIN_ENTRY), 'utf8')).map((specifier) =>
        targetOf(join(SRC, PACKAGE_DOMAIN_ENTRY), specifier),
      ),
    ).to.deep.equal([FAMILY_ENTRIES]);
  });

  it('the domain refuses input by its fields, never by where a transport put them (query, header, body)', () => {
    const placedTags = /'(Missing|Invalid)(QueryParameter|Header|BodyParameter)'/g;
    const offences = domainFiles
      .filter((file) => below(file) !== join('domain', 'errors.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(placedTags)].map((match) => `${below(file)} names ${match[0]}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('the domain names fields, never a transport’s header: a route row maps its header to the field', () => {
    const offences = domainFiles.flatMap((file) =>
      headerNamesIn(readFileSync(file, 'utf8')).map((name) => `${below(file)} names the header ${name}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('outside its own family, only the composition root imports a family’s adapters', () => {
    const offences = allFiles
      .filter((file) => !isCompositionRoot(below(file)))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => targetOf(file, specifier))
          .filter((to) => {
            const [top, family, folder] = segments(to);
            if (top !== 'families' || folder !== 'adapters') return false;
            const place = placeOf(below(file));
            return !('family' in place && place.family === family && place.kind === 'family');
          })
          .map((to) => `${below(file)} imports ${to}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('only the composition root knows the container', () => {
    const offences = allFiles
      .filter((file) => !isCompositionRoot(below(file)))
      .flatMap((file) =>
        importsOf(file)
          .filter((s) => s === 'inversify' || s.startsWith('@inversifyjs/'))
          .map((s) => `${below(file)} imports ${s}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('the composition hands each factory its dependencies rather than looking them up (no service location)', () => {
    const offences = allFiles
      .filter((file) => isCompositionRoot(below(file)))
      .flatMap((file) => lookupsIn(readFileSync(file, 'utf8')).map((lookup) => `${below(file)}:${lookup}`));
    // The root itself resolves the finished table once, to fail the start early, the lifecycle's components, each family's use cases and the HTTP app.
    expect(offences.filter((offence) => !offence.startsWith('container.ts:'))).to.deep.equal([]);
  });

  it('nothing outside the composition root looks things up in the container: not the server, the CLI, the tests nor the benchmarks', () => {
    const files = ['src', 'tests', 'bench']
      .flatMap((dir) => scriptFiles(join(ROOT, dir)))
      .filter((file) => !(file.startsWith(SRC + sep) && isCompositionRoot(below(file))));
    expect(files.map((file) => relative(ROOT, file))).to.include.members([
      join('src', 'cli', 'main.ts'),
      join('tests', 'support', 'http-server.ts'),
      join('bench', 'run-benchmark.ts'),
    ]);
    const offences = files.flatMap((file) =>
      lookupsIn(readFileSync(file, 'utf8')).map((lookup) => `${relative(ROOT, file)}:${lookup}`),
    );
    // They use what the application hands out, each typed: app.useCases.<family>, app.routes, app.httpApp().
    expect(offences).to.deep.equal([]);
  });

  it('the lookup finder catches a lookup, over lines too, and nothing else', () => {
    // Each lookup is spelled in pieces, so that this file holds none for the rule above to find.
    const container = 'container';
    expect(lookupsIn(`const table = server.app.${container}.get<RouteTable>(Routes);`)).to.have.length(1);
    expect(lookupsIn(`await app.${container}\n  .get(SendMail)\n  .execute(mail);`)).to.deep.equal([
      `1: await app.${container}`,
    ]);
    expect(lookupsIn(`x;\nconst all = test${'Container'}.getAll(LifecycleComponent);`)).to.deep.equal([
      `2: const all = test${'Container'}.getAll(LifecycleComponent);`,
    ]);
    expect(lookupsIn(`(${'context'}) => ${'context'}.getAsync<Clock>(Clock)`)).to.have.length(1);
    expect(
      lookupsIn(`${container}.bind(Log).toConstantValue(logger); ctx.get('x-request-id'); cache.get(key);`),
    ).to.deep.equal([]);
  });

  it('a route file imports the domain and the platform, never an adapter', () => {
    const routeFiles = allFiles.filter((file) => below(file).endsWith('-routes.ts'));
    expect(routeFiles.length).to.be.greaterThan(10);
    const offences = routeFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .flatMap((specifier) => routeOffence(below(file), targetOf(file, specifier)) ?? []),
    );
    expect(offences).to.deep.equal([]);
  });

  it('the layout rules themselves catch a forbidden import', () => {
    const at = (...parts: string[]): string => join(...parts);
    // a family's domain reaching into another family, past its public entry
    expect(
      layoutOffence(at('families', 'weather', 'domain', 'a.ts'), at('families', 'location', 'domain', 'ports.ts')),
    ).to.be.a('string');
    expect(
      layoutOffence(at('families', 'weather', 'domain', 'a.ts'), at('families', 'location', 'domain', 'index.ts')),
    ).to.equal(undefined);
    // a family's domain importing the platform or its own adapters
    expect(
      layoutOffence(at('families', 'mail', 'domain', 'a.ts'), at('platform', 'upstream', 'upstream-client.ts')),
    ).to.be.a('string');
    expect(
      layoutOffence(at('families', 'mail', 'domain', 'a.ts'), at('families', 'mail', 'adapters', 'smtp-mailer.ts')),
    ).to.be.a('string');
    // a family's adapter reaching another family's adapters
    expect(
      layoutOffence(at('families', 'barcode', 'adapters', 'a.ts'), at('families', 'location', 'adapters', 'b.ts')),
    ).to.be.a('string');
    expect(
      layoutOffence(at('families', 'barcode', 'adapters', 'a.ts'), at('platform', 'caching', 'lru-cache.ts')),
    ).to.equal(undefined);
    // the platform importing a family, and the shared domain importing a family
    expect(
      layoutOffence(
        at('platform', 'http', 'app.ts'),
        at('families', 'users-and-tokens', 'domain', 'auth', 'authenticate.ts'),
      ),
    ).to.be.a('string');
    expect(
      layoutOffence(
        at('domain', 'identity', 'actor.ts'),
        at('families', 'users-and-tokens', 'domain', 'users', 'user.ts'),
      ),
    ).to.be.a('string');
    // a family's module importing the composition (the folders' circle), or the wiring kit importing a family
    expect(layoutOffence(at('families', 'weather', 'weather-module.ts'), at('composition', 'families.ts'))).to.be.a(
      'string',
    );
    expect(layoutOffence(at('families', 'weather', 'weather-module.ts'), at('wiring', 'typed-binding.ts'))).to.equal(
      undefined,
    );
    expect(layoutOffence(at('wiring', 'family.ts'), at('families', 'index.ts'))).to.be.a('string');
    expect(layoutOffence(at('wiring', 'family.ts'), at('composition', 'families.ts'))).to.be.a('string');
    // the package's domain entry re-exporting the platform's ports, or a family's file past its public entry
    expect(layoutOffence(at('domain', 'index.ts'), at('platform', 'pipeline', 'ports.ts'))).to.be.a('string');
    expect(layoutOffence(at('domain', 'family-entries.ts'), at('families', 'mail', 'domain', 'ports.ts'))).to.be.a(
      'string',
    );
    expect(layoutOffence(at('domain', 'family-entries.ts'), at('families', 'mail', 'domain', 'index.ts'))).to.equal(
      undefined,
    );
    expect(layoutOffence(at('domain', 'index.ts'), at('domain', 'family-entries.ts'))).to.equal(undefined);
    // a route file importing an adapter
    expect(
      routeOffence(at('families', 'phone', 'phone-routes.ts'), at('families', 'phone', 'adapters', 'x.ts')),
    ).to.be.a('string');
    expect(routeOffence(at('families', 'phone', 'phone-routes.ts'), at('platform', 'http', 'fields.ts'))).to.equal(
      undefined,
    );
  });

  it('the family entries check finds a family with no entry, one not gathered or gathered twice, and a stray line', () => {
    const entry = (family: string): string => join('families', family, 'domain', 'index.ts');
    const everyEntry = (): boolean => true;
    expect(familyEntryOffences(['mail', 'phone'], everyEntry, [entry('mail'), entry('phone')])).to.deep.equal([]);
    expect(familyEntryOffences(['mail', 'phone'], (family) => family !== 'phone', [entry('mail')])).to.have.length(1);
    expect(familyEntryOffences(['mail', 'phone'], everyEntry, [entry('mail')])).to.have.length(1);
    expect(familyEntryOffences(['mail'], everyEntry, [entry('mail'), entry('mail')])).to.have.length(1);
    expect(familyEntryOffences(['mail'], everyEntry, [entry('mail'), entry('fax')])).to.have.length(1);
    expect(familyEntryOffences(['mail'], everyEntry, [join('families', 'mail', 'domain', 'ports.ts')])).to.have.length(
      2,
    );
    expect(
      starExportsOf("export * from './a.js';\nexport { b } from './b.js';\nexport * from './c.js';"),
    ).to.deep.equal(['./a.js', './c.js']);
  });

  it('the header check finds a header name in any literal of code, and none in comments', () => {
    expect(headerNamesIn("const field = 'x-uid';")).to.deep.equal(['x-uid']);
    expect(headerNamesIn('const rule = `give ${lat}, X-Coords or x-city`;')).to.deep.equal(['X-Coords', 'x-city']);
    expect(headerNamesIn('missingInput("x-forwarded-for")')).to.deep.equal(['x-forwarded-for']);
    expect(
      headerNamesIn("/** the `x-uid` header */\n// also 'x-domain'\nconst url = 'https://example.com'; // x-city"),
    ).to.deep.equal([]);
    expect(
      headerNamesIn("const ace = 'xn--mnchen-3ya.de'; const box = 'inbox-x'; const max = 'max-age';"),
    ).to.deep.equal([]);
  });

  it('the client (utility-api/client) imports nothing of the server: only its own folder and openapi-fetch, never a node: module', () => {
    const clientDir = join(SRC, 'client');
    const clientFiles = sourceFiles(clientDir);
    expect(clientFiles.map(below)).to.include(join('client', 'index.ts'));
    const offences = clientFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !CLIENT_MAY_IMPORT(file, specifier))
        .map((specifier) => `${below(file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
    // Nor does the server import the client: it is a package entry of its own, for browsers too.
    const intoClient = allFiles
      .filter((file) => !file.startsWith(clientDir + sep))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.') && segments(targetOf(file, specifier))[0] === 'client')
          .map((specifier) => `${below(file)} imports ${specifier}`),
      );
    expect(intoClient).to.deep.equal([]);
  });

  it('the client rule refuses the server, node: modules and other packages, and allows its own folder and openapi-fetch', () => {
    const file = join(SRC, 'client', 'index.ts');
    expect(CLIENT_MAY_IMPORT(file, './answers.js')).to.equal(true);
    expect(CLIENT_MAY_IMPORT(file, './generated/api.js')).to.equal(true);
    expect(CLIENT_MAY_IMPORT(file, 'openapi-fetch')).to.equal(true);
    expect(CLIENT_MAY_IMPORT(file, '../domain/errors.js')).to.equal(false);
    expect(CLIENT_MAY_IMPORT(file, '../platform/http/rate-limit-fields.js')).to.equal(false);
    expect(CLIENT_MAY_IMPORT(file, 'node:buffer')).to.equal(false);
    expect(CLIENT_MAY_IMPORT(file, 'io-ts')).to.equal(false);
    expect(CLIENT_MAY_IMPORT(file, 'koa')).to.equal(false);
  });

  it('the console (src/console/) imports only itself, the client, Preact and uPlot; nothing of the server imports it', () => {
    const files = consoleFiles(CONSOLE_DIR);
    expect(files.map(below)).to.include(join('console', 'main.tsx'));
    const offences = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !CONSOLE_MAY_IMPORT(file, specifier))
        .map((specifier) => `${below(file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
    const intoConsole = allFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.') && segments(targetOf(file, specifier))[0] === 'console')
        .map((specifier) => `${below(file)} imports ${specifier}`),
    );
    expect(intoConsole).to.deep.equal([]);
  });

  it('the console rule refuses the server, node: modules and other packages', () => {
    const file = join(SRC, 'console', 'pages', 'tokens.tsx');
    expect(CONSOLE_MAY_IMPORT(file, '../components/dialog.js')).to.equal(true);
    expect(CONSOLE_MAY_IMPORT(file, '../../client/index.js')).to.equal(true);
    expect(CONSOLE_MAY_IMPORT(file, 'preact/hooks')).to.equal(true);
    expect(CONSOLE_MAY_IMPORT(file, 'uplot')).to.equal(true);
    expect(CONSOLE_MAY_IMPORT(file, '../../domain/permissions.js')).to.equal(false);
    expect(CONSOLE_MAY_IMPORT(file, '../../platform/http/console-page.js')).to.equal(false);
    expect(CONSOLE_MAY_IMPORT(file, 'node:fs')).to.equal(false);
    expect(CONSOLE_MAY_IMPORT(file, 'preactive')).to.equal(false);
    expect(CONSOLE_MAY_IMPORT(file, 'react')).to.equal(false);
  });

  it('the checker itself catches a forbidden import', () => {
    expect(DOMAIN_MAY_IMPORT('koa')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('knex')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('inversify')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('@koa/router')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('node:fs')).to.equal(false);
    expect(DOMAIN_MAY_IMPORT('node:crypto')).to.equal(true);
  });
});
