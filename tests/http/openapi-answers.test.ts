import { expect } from 'chai';
import { RECORDED_ANSWERS } from '../../src/composition/recorded-answers.js';
import type { AnswerExampleTable } from '../../src/platform/http/route-samples.js';
import { recordAnswers, recorded } from '../support/answer-recording.js';
import { examplesBeyondTheirSchema } from '../support/openapi-conformance.js';
import { openReferenceWorld, type ReferenceWorld } from '../support/reference-world.js';

interface Document {
  readonly paths: Record<
    string,
    Record<
      string,
      { deprecated?: boolean; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }
    >
  >;
}

/**
 * What a value is made of, as the set of its leaves' paths and types (`.users[].uid string`):
 * two answers of one operation have the same shape however their ids, times and counts differ.
 */
function shapeOf(value: unknown, at = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    if (value.length === 0) into.add(`${at}[] empty`);
    for (const item of value) shapeOf(item, `${at}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) shapeOf(item, `${at}.${key}`, into);
  } else into.add(`${at} ${value === null ? 'null' : typeof value}`);
  return into;
}

const shapesOf = (answers: AnswerExampleTable): Map<string, Set<string>> =>
  new Map(
    Object.entries(answers).flatMap(([route, byContent]) =>
      Object.entries(byContent).map(([content, answer]) => [`${route} ${content}`, shapeOf(answer)] as const),
    ),
  );

/** Where two recordings differ: per answer, the leaves only one of them has (`+` today's, `-` the stored one's). */
function drift(stored: AnswerExampleTable, today: AnswerExampleTable): string[] {
  const [before, after] = [shapesOf(stored), shapesOf(today)];
  return [...new Set([...before.keys(), ...after.keys()])].flatMap((answer) => {
    const [was, is] = [before.get(answer) ?? new Set<string>(), after.get(answer) ?? new Set<string>()];
    const changes = [
      ...[...is].filter((leaf) => !was.has(leaf)).map((leaf) => `+${leaf}`),
      ...[...was].filter((leaf) => !is.has(leaf)).map((leaf) => `-${leaf}`),
    ];
    return changes.length === 0 ? [] : [`${answer}: ${changes.join(', ')}`];
  });
}

/**
 * Issue 28 §2: every success of the reference shows a realistic answer (what the operation answered
 * its example request on a server whose upstreams are loopback fixtures), each one the document's
 * own schema describes, and none that the server no longer answers.
 */
describe('http: the answers the reference shows', function () {
  this.timeout(120_000);
  let world: ReferenceWorld;
  let document: Document;
  let documentText: string;

  before(async () => {
    world = await openReferenceWorld();
    documentText = await (await world.server.get('/api/openapi.json')).text();
    document = JSON.parse(documentText) as Document;
  });
  after(async () => world?.close());

  it('gives every success of every operation an example, but for images and the document itself', () => {
    const missing = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        operation.deprecated
          ? []
          : Object.entries(operation.responses)
              .filter(([status]) => status.startsWith('2'))
              .flatMap(([status, { content = {} }]) =>
                Object.entries(content)
                  .filter(([type, media]) => recorded(path, type) && media.example === undefined)
                  .map(([type]) => `${method.toUpperCase()} ${path} ${status} ${type}`),
              ),
      ),
    );
    expect(missing, 'record them with npm run docs:answers').to.deep.equal([]);
    expect(Object.keys(RECORDED_ANSWERS).length).to.be.greaterThan(50);
  });

  it('shows only examples the document’s own schemas describe', () => {
    expect(examplesBeyondTheirSchema(documentText)).to.deep.equal([]);
  });

  it('shows answers of the shape the server gives today: recorded again, each has the same fields of the same types', async () => {
    const today = await recordAnswers(world);
    expect(drift(RECORDED_ANSWERS, today), 'stale: record them again with npm run docs:answers').to.deep.equal([]);
  });
});
