/**
 * Random digit strings that match a numbering-plan pattern, to ask about numbers of every kind and
 * layout a plan knows rather than only its one example number. The patterns of libphonenumber's
 * metadata use a small part of regular expressions: digits, `\d`, classes of digits and ranges,
 * groups (capturing or not), `|`, `?` and `{n}` / `{n,m}`; anything else is refused so that a
 * pattern is never sampled wrongly without notice.
 */

type Node =
  | { readonly kind: 'digits'; readonly choices: string }
  | { readonly kind: 'alternatives'; readonly branches: readonly Sequence[] };
type Sequence = readonly { readonly node: Node; readonly min: number; readonly max: number }[];

const ALL_DIGITS = '0123456789';

function parse(pattern: string): Node {
  let at = 0;
  const fail = (): never => {
    throw new Error(`cannot sample ${JSON.stringify(pattern)} at ${at}`);
  };

  const alternatives = (): Node => {
    const branches: Sequence[] = [sequence()];
    while (pattern[at] === '|') {
      at += 1;
      branches.push(sequence());
    }
    return { kind: 'alternatives', branches };
  };

  const sequence = (): Sequence => {
    const items: { node: Node; min: number; max: number }[] = [];
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const node = atom();
      let min = 1;
      let max = 1;
      if (pattern[at] === '?') {
        at += 1;
        min = 0;
      } else if (pattern[at] === '{') {
        const quantifier = /^\{(\d+)(?:,(\d+))?\}/.exec(pattern.slice(at)) ?? fail();
        at += quantifier[0].length;
        min = Number(quantifier[1]);
        max = quantifier[2] === undefined ? min : Number(quantifier[2]);
      }
      items.push({ node, min, max });
    }
    return items;
  };

  const atom = (): Node => {
    const char = pattern[at];
    if (char === '(') {
      at += pattern.startsWith('(?:', at) ? 3 : 1;
      const inner = alternatives();
      if (pattern[at] !== ')') fail();
      at += 1;
      return inner;
    }
    if (char === '[') return { kind: 'digits', choices: digitClass() };
    if (pattern.startsWith('\\d', at)) {
      at += 2;
      return { kind: 'digits', choices: ALL_DIGITS };
    }
    if (char !== undefined && ALL_DIGITS.includes(char)) {
      at += 1;
      return { kind: 'digits', choices: char };
    }
    return fail();
  };

  const digitClass = (): string => {
    at += 1;
    let choices = '';
    while (pattern[at] !== ']') {
      if (pattern.startsWith('\\d', at)) {
        choices += ALL_DIGITS;
        at += 2;
        continue;
      }
      const from = pattern[at];
      if (from === undefined || !ALL_DIGITS.includes(from)) fail();
      if (pattern[at + 1] === '-' && pattern[at + 2] !== ']') {
        const to = pattern[at + 2]!;
        for (let digit = Number(from); digit <= Number(to); digit += 1) choices += String(digit);
        at += 3;
      } else {
        choices += from;
        at += 1;
      }
    }
    at += 1;
    return choices;
  };

  const tree = alternatives();
  if (at !== pattern.length) fail();
  return tree;
}

/** A small seeded generator (mulberry32): the same samples on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` strings matching `pattern` entirely, drawn with `random`. */
export function samplesOf(pattern: string, count: number, random: () => number): string[] {
  const tree = parse(pattern);
  const pick = (upTo: number): number => Math.floor(random() * upTo);
  const draw = (node: Node): string => {
    if (node.kind === 'digits') return node.choices[pick(node.choices.length)]!;
    const branch = node.branches[pick(node.branches.length)]!;
    let text = '';
    for (const { node: item, min, max } of branch) {
      const times = min + pick(max - min + 1);
      for (let time = 0; time < times; time += 1) text += draw(item);
    }
    return text;
  };
  return Array.from({ length: count }, () => draw(tree));
}

/** Random digits, `length` of them. */
export const randomDigits = (length: number, random: () => number): string =>
  Array.from({ length }, () => ALL_DIGITS[Math.floor(random() * 10)]).join('');
