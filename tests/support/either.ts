import { expect } from 'chai';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainError } from '../../src/domain/errors.js';

export function expectRight<A>(result: E.Either<unknown, A>): A {
  if (E.isLeft(result)) expect.fail(`expected success, got ${JSON.stringify(result.left)}`);
  return result.right;
}

export function expectLeftTag(result: E.Either<DomainError, unknown>, tag: DomainError['_tag']): DomainError {
  if (E.isRight(result)) expect.fail(`expected ${tag}, got success ${JSON.stringify(result.right)}`);
  expect(result.left._tag).to.equal(tag);
  return result.left;
}
