import * as E from 'fp-ts/lib/Either.js';
import { checkText } from '../domain/content.js';
import type { ContentSource, SourceResult } from '../domain/ports.js';

/** What the source answers one ask with: a text, as an upstream would send it, or the way it fails. */
export type ScriptedAnswer = string | { readonly unavailable: 'timeout' | 'failure' };

const FAILURE: SourceResult = { kind: 'unavailable', reason: 'failure' };

/**
 * An upstream of facts or quotes in memory, for tests of what uses one: it answers its script one
 * ask at a time. A text is checked by the rules every entry follows, as the upstream adapters check
 * what they receive (trimmed; refused, as a failure, when it breaks one); once the script is spent,
 * every ask fails, as an upstream that is down.
 */
export class MemoryContentSource implements ContentSource {
  private readonly script: ScriptedAnswer[];

  constructor(script: readonly ScriptedAnswer[]) {
    this.script = [...script];
  }

  async next(): Promise<SourceResult> {
    const answer = this.script.shift();
    if (answer === undefined) return FAILURE;
    if (typeof answer !== 'string') return { kind: 'unavailable', reason: answer.unavailable };
    const text = checkText(answer);
    return E.isRight(text) ? { kind: 'received', text: text.right } : FAILURE;
  }
}
