import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const SRC = resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
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

/** src/container.ts and the family modules it loads from src/composition. */
const isCompositionRoot = (file: string): boolean =>
  relative(SRC, file) === 'container.ts' || relative(SRC, file).startsWith(`composition${sep}`);

/** Adapter folders that are building blocks for the others, not a family's outside system. */
const SHARED_ADAPTER_KITS = new Set(['access-changes', 'caching', 'clock', 'logging', 'networks', 'upstream']);
/** Route files of one family, which may share its field definitions. */
const SAME_FAMILY_ROUTES: Readonly<Record<string, readonly string[]>> = { 'token-routes.ts': ['user-routes.ts'] };

/** The path below src/ that a relative specifier of `file` names, with `.js` read as the `.ts` it is built from. */
const targetOf = (file: string, specifier: string): string =>
  relative(SRC, resolve(file, '..', specifier)).replace(/\.js$/, '.ts');
const segments = (path: string): string[] => path.split(sep);

/** Why an import from one adapter folder into another is refused, if it is. */
function crossAdapterOffence(from: string, to: string): string | undefined {
  const [fromTop, fromFolder] = segments(from);
  const [toTop, toFolder] = segments(to);
  if (fromTop !== 'adapters' || toTop !== 'adapters' || fromFolder === toFolder) return undefined;
  return SHARED_ADAPTER_KITS.has(toFolder!) ? undefined : `${from} imports ${to}, an adapter of another outside system`;
}

/** Why a route file's import is refused, if it is: routes know the domain and the HTTP tools, not adapters or other families' routes. */
function routeOffence(from: string, to: string): string | undefined {
  const routes = join('adapters', 'http', 'routes');
  if (!from.startsWith(routes + sep)) return undefined;
  if (to.startsWith(`domain${sep}`)) return undefined;
  if (segments(to).length === 3 && to.startsWith(join('adapters', 'http') + sep)) return undefined;
  if (to.startsWith(routes + sep) && (SAME_FAMILY_ROUTES[segments(from).at(-1)!] ?? []).includes(segments(to).at(-1)!))
    return undefined;
  return `${from} imports ${to}`;
}

describe('architecture: dependencies point inward', () => {
  const domainDir = join(SRC, 'domain');
  const domainFiles = sourceFiles(domainDir);

  it('finds the domain files it checks', () => {
    expect(domainFiles.length).to.be.greaterThan(5);
  });

  it('the domain imports no framework, database driver, container or I/O module', () => {
    const offences = domainFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => !DOMAIN_MAY_IMPORT(specifier))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('the domain imports nothing from outside src/domain', () => {
    const offences = domainFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .filter((specifier) => relative(domainDir, resolve(file, '..', specifier)).startsWith('..'))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(offences).to.deep.equal([]);
  });

  it('the domain refuses input by its fields, never by where a transport put them (query, header, body)', () => {
    const placedTags = /'(Missing|Invalid)(QueryParameter|Header|BodyParameter)'/g;
    const offences = domainFiles
      .filter((file) => relative(domainDir, file) !== 'errors.ts')
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(placedTags)].map((match) => `${relative(SRC, file)} names ${match[0]}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('only the composition root picks concrete stores', () => {
    const concrete = /persistence\/(memory|knex)\/(memory|knex)-\w+-store\.js$/;
    const offences = sourceFiles(SRC)
      .filter((file) => !file.includes(`${join('adapters', 'persistence')}`) && !isCompositionRoot(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((s) => concrete.test(s))
          .map((s) => `${relative(SRC, file)} imports ${s}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('only the composition root knows the container', () => {
    const offences = sourceFiles(SRC)
      .filter((file) => !isCompositionRoot(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((s) => s === 'inversify' || s.startsWith('@inversifyjs/'))
          .map((s) => `${relative(SRC, file)} imports ${s}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('the composition hands each factory its dependencies rather than looking them up (no service location)', () => {
    const compositionFiles = sourceFiles(join(SRC, 'composition'));
    expect(compositionFiles.length).to.be.greaterThan(5);
    const offences = [...compositionFiles, join(SRC, 'container.ts')].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b(container|context)\.get(All)?(Async)?\s*[<(]/.test(line)
            ? [`${relative(SRC, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    // The root itself resolves the finished table once, to fail the start early, the lifecycle's components, each family's use cases and the HTTP app.
    expect(offences.filter((offence) => !offence.startsWith('container.ts:'))).to.deep.equal([]);
  });

  it('an adapter uses another adapter folder only when it is a shared kit (access-change publishing, caching, clock, logging, address networks, the upstream client)', () => {
    const offences = sourceFiles(join(SRC, 'adapters')).flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .flatMap((specifier) => crossAdapterOffence(relative(SRC, file), targetOf(file, specifier)) ?? []),
    );
    expect(offences).to.deep.equal([]);
  });

  it('a route file imports the domain and the HTTP tools, never an adapter or another family’s routes', () => {
    const routeFiles = sourceFiles(join(SRC, 'adapters', 'http', 'routes'));
    expect(routeFiles.length).to.be.greaterThan(5);
    const offences = routeFiles.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .flatMap((specifier) => routeOffence(relative(SRC, file), targetOf(file, specifier)) ?? []),
    );
    expect(offences).to.deep.equal([]);
  });

  it('outside src/adapters, only the composition root and the process entry (main.ts, which serves HTTP) import an adapter', () => {
    const offences = sourceFiles(SRC)
      .filter(
        (file) =>
          !relative(SRC, file).startsWith(`adapters${sep}`) &&
          !isCompositionRoot(file) &&
          relative(SRC, file) !== 'main.ts',
      )
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.') && targetOf(file, specifier).startsWith(`adapters${sep}`))
          .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
      );
    expect(offences).to.deep.equal([]);
  });

  it('the adapter and route rules themselves catch a forbidden import', () => {
    expect(crossAdapterOffence(join('adapters', 'barcode', 'a.ts'), join('adapters', 'geonames', 'b.ts'))).to.be.a(
      'string',
    );
    expect(crossAdapterOffence(join('adapters', 'hive', 'a.ts'), join('adapters', 'upstream', 'b.ts'))).to.equal(
      undefined,
    );
    expect(
      routeOffence(join('adapters', 'http', 'routes', 'phone-routes.ts'), join('adapters', 'libphonenumber', 'x.ts')),
    ).to.be.a('string');
    expect(
      routeOffence(
        join('adapters', 'http', 'routes', 'phone-routes.ts'),
        join('adapters', 'http', 'routes', 'user-routes.ts'),
      ),
    ).to.be.a('string');
    expect(
      routeOffence(
        join('adapters', 'http', 'routes', 'token-routes.ts'),
        join('adapters', 'http', 'routes', 'user-routes.ts'),
      ),
    ).to.equal(undefined);
    expect(
      routeOffence(join('adapters', 'http', 'routes', 'phone-routes.ts'), join('adapters', 'http', 'fields.ts')),
    ).to.equal(undefined);
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
