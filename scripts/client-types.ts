// The types of utility-api/client, made from the OpenAPI document the server serves: every family
// built in this process on memory storage (no port, no database, no file written but the types),
// its route table described as GET /api/openapi.json describes it, and that document given to
// openapi-typescript. Run by scripts/build.js before the compiler, so that `npm run build` (and
// `npm ci`, through `prepare`) always ships types of the routes being built.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { loadConfig } from '../src/config/load-config.js';
import { buildApplication } from '../src/container.js';
import { API_PREFIX } from '../src/platform/http/app.js';
import { openApiDocument } from '../src/platform/http/openapi.js';

/** Where the client's modules import their types from; not committed (see .gitignore). */
export const CLIENT_TYPES = join(import.meta.dirname, '..', 'src', 'client', 'generated', 'api.ts');

const HEADER = `// Made by scripts/client-types.ts from GET /api/openapi.json at build time; edits are lost.
/* eslint-disable */
`;

/** The document of every family, as a server with the default settings serves it. */
export async function servedDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    env: { NODE_ENV: 'test', UTILITY_API_STORAGE: 'memory' },
    // Only so that the crypto family can be built: no text is ever encrypted with it.
    overrides: { encryption: { key: randomBytes(32).toString('base64') } },
  });
  if (config._tag === 'Left') throw new Error(`the settings to describe the API from: ${config.left.join('; ')}`);
  const app = await buildApplication(config.right, { recordsFeatureSwitches: false });
  try {
    return openApiDocument(app.routes, API_PREFIX);
  } finally {
    await app.close();
  }
}

/** The TypeScript text of the document's types. */
export async function clientTypesOf(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    silent: true,
    // An image arrives as bytes: the client hands it over as a Blob, which browsers and Node share.
    transform: (schema) => {
      // openapi-typescript's types know OpenAPI 3.0's schema keywords, not 3.1's contentMediaType.
      const mediaType = (schema as { contentMediaType?: unknown }).contentMediaType;
      return typeof mediaType === 'string' && mediaType.startsWith('image/')
        ? ts.factory.createTypeReferenceNode('Blob')
        : undefined;
    },
  });
  return HEADER + astToString(ast);
}

/** Writes the types when they changed (an unchanged file keeps its time, and dist/ stays current). */
export async function writeClientTypes(): Promise<boolean> {
  const text = await clientTypesOf(await servedDocument());
  let before: string | undefined;
  try {
    before = readFileSync(CLIENT_TYPES, 'utf8');
  } catch {
    before = undefined;
  }
  if (before === text) return false;
  mkdirSync(dirname(CLIENT_TYPES), { recursive: true });
  // Whole or not at all: a type-check running beside the build reads the old file or the new one.
  writeFileSync(`${CLIENT_TYPES}.tmp`, text);
  renameSync(`${CLIENT_TYPES}.tmp`, CLIENT_TYPES);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  await writeClientTypes();
}
