import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';

// The validator package brings Ajv 8 with draft 2020-12, the dialect of OpenAPI 3.1; the Ajv at
// the top of node_modules is ESLint's Ajv 6, which knows neither.
const requireFromValidator = createRequire(import.meta.resolve('@seriousme/openapi-schema-validator'));
type Ajv8 = typeof import('@seriousme/openapi-schema-validator/node_modules/ajv/dist/2020.js');
const Ajv2020 = requireFromValidator('ajv/dist/2020.js') as Ajv8['default'];
type ValidateFunction = import('@seriousme/openapi-schema-validator/node_modules/ajv/dist/2020.js').ValidateFunction;

type Document = {
  readonly paths: Record<string, Record<string, Operation>>;
};
type MediaTypes = Record<string, { readonly schema?: object }>;
type Headers = Record<string, { readonly required?: boolean; readonly schema?: object }>;
interface Operation {
  readonly responses: Record<string, { readonly content?: MediaTypes; readonly headers?: Headers }>;
}

interface CompiledResponse {
  /** Per media type, the schema of a body (compiled when first checked, see validatorOf). */
  readonly media: ReadonlyMap<string, object>;
  readonly headers: readonly {
    readonly name: string;
    readonly required: boolean;
    readonly schema: object;
  }[];
}

interface CompiledOperation {
  readonly method: string;
  readonly pattern: RegExp;
  readonly template: string;
  readonly responses: ReadonlyMap<string, CompiledResponse>;
}

export interface Conformance {
  /** Fails the test when the response is not one the document lists for this request. */
  check(method: string, url: string, response: Response): Promise<void>;
}

/**
 * `/api/game/network/maps/{map}` as a pattern the way @koa/router matches it: any letter case,
 * an optional trailing slash, one segment per parameter.
 */
const patternOf = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/\{\w+\}/)
      .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]+')}/?$`,
    'i',
  );

const mediaTypeOf = (response: Response): string | undefined =>
  response.headers.get('content-type')?.split(';')[0]!.trim();

/**
 * One Ajv for every document: a schema is compiled when a response first needs it, once per
 * distinct schema. Compiling every schema of every document a server describes cost most of the
 * time some suites take (about a second a server), where a suite checks answers of a few routes.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
const byObject = new WeakMap<object, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  const known = byObject.get(schema);
  if (known) return known;
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    // A schema that refers to itself once resolved: compiled on its own.
  }
  const validate = (text !== undefined ? byText.get(text) : undefined) ?? ajv.compile(schema);
  if (text !== undefined) byText.set(text, validate);
  byObject.set(schema, validate);
  return validate;
}

function compile(document: Document): CompiledOperation[] {
  const resolved = new Validator().resolveRefs({
    specification: document as unknown as Record<string, unknown>,
  }) as unknown as Document;
  return Object.entries(resolved.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase(),
      template,
      pattern: patternOf(template),
      responses: new Map(
        Object.entries(operation.responses).map(([status, { content = {}, headers = {} }]) => [
          status,
          {
            media: new Map(Object.entries(content).map(([type, { schema = {} }]) => [type, schema])),
            headers: Object.entries(headers).map(([name, { required = false, schema = {} }]) => ({
              name,
              required,
              schema,
            })),
          },
        ]),
      ),
    })),
  );
}

/**
 * Where no operation is listed for the path and method, the server still answers with the
 * catalogue's error object (404 for an unknown path, 405 for a known one asked with another method).
 */
function errorSchema(document: Document): object {
  return (document as unknown as { components: { schemas: { Error: object } } }).components.schemas.Error;
}

const compiled = new Map<string, Conformance>();

/**
 * The check of every response against an OpenAPI document, compiled once per distinct document
 * (servers started with other limits describe other lengths).
 */
export function conformanceTo(documentText: string): Conformance {
  const known = compiled.get(documentText);
  if (known) return known;
  const document = JSON.parse(documentText) as Document;
  const operations = compile(document);
  const error = errorSchema(document);
  const conformance: Conformance = {
    async check(method, url, response) {
      const { pathname } = new URL(url);
      // HEAD is answered as GET, without a body.
      const asked = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
      const operation = operations.find((candidate) => candidate.method === asked && candidate.pattern.test(pathname));
      const where = `${method} ${pathname} answered ${response.status}`;
      const type = mediaTypeOf(response);
      if (!operation) {
        if (type === 'application/json' && method.toUpperCase() !== 'HEAD') {
          const body = (await response.clone().json()) as unknown;
          const isError = validatorOf(error);
          expect(
            isError(body),
            `${where}, outside the document, with something other than an error object: ${JSON.stringify(isError.errors)}`,
          ).to.equal(true);
        }
        return;
      }
      const listed = operation.responses.get(String(response.status));
      expect(
        listed,
        `${where}, a status the document does not list for ${operation.method} ${operation.template}`,
      ).to.not.equal(undefined);
      for (const header of listed!.headers) {
        const value = response.headers.get(header.name);
        if (value === null) expect(header.required, `${where} without its header ${header.name}`).to.equal(false);
        else
          expect(
            validatorOf(header.schema)(value),
            `${where} with ${header.name}: ${value}, which the document does not describe`,
          ).to.equal(true);
      }
      const media = listed!.media;
      if (media.size === 0 || method.toUpperCase() === 'HEAD') return;
      expect(type, `${where} without a content type`).to.be.a('string');
      const schema = media.get(type!);
      expect(
        schema,
        `${where} as ${type}, which the document does not list for that status (${[...media.keys()].join(', ')})`,
      ).to.not.equal(undefined);
      if (type!.startsWith('image/')) return;
      const validate = validatorOf(schema!);
      const text = await response.clone().text();
      // JSON and the types built on it (`application/health+json`) are checked as the JSON they hold.
      const body = /^application\/(?:[\w.-]+\+)?json$/.test(type!) ? (JSON.parse(text) as unknown) : text;
      expect(
        validate(body),
        `${where} with a body the document does not describe: ${JSON.stringify(validate.errors)}`,
      ).to.equal(true);
    },
  };
  compiled.set(documentText, conformance);
  return conformance;
}

/**
 * The examples of a document's successes that their own schema does not describe, one line each
 * (`GET /api/crypto/enc 200 text/plain: …`): none, for a document whose examples a client can trust.
 */
export function examplesBeyondTheirSchema(documentText: string): string[] {
  const resolved = new Validator().resolveRefs({
    specification: JSON.parse(documentText) as Record<string, unknown>,
  }) as unknown as {
    paths: Record<
      string,
      Record<
        string,
        { responses: Record<string, { content?: Record<string, { schema?: object; example?: unknown }> }> }
      >
    >;
  };
  return Object.entries(resolved.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, { responses }]) =>
      Object.entries(responses).flatMap(([status, { content = {} }]) =>
        Object.entries(content).flatMap(([type, { schema = {}, example }]) => {
          if (example === undefined) return [];
          const validate = validatorOf(schema);
          return validate(example)
            ? []
            : [`${method.toUpperCase()} ${path} ${status} ${type}: ${JSON.stringify(validate.errors)}`];
        }),
      ),
    ),
  );
}
