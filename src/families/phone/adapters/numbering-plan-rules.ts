import type { PhoneNumberType } from '../domain/phone-number.js';

/**
 * The part of libphonenumber-js's `Metadata` (source/metadata.js) that its own type and format
 * functions read, with a numbering plan selected. Only `selectNumberingPlan` is documented: the
 * rest is the library's inside, so the contract tests compare every answer built from it with the
 * library's own calls, over numbers of every kind and layout of every plan.
 */
export interface PlanMetadata {
  selectNumberingPlan(countryOrCallingCode: string): unknown;
  countryCallingCode(): string;
  nationalNumberPattern(): string;
  possibleLengths(): readonly number[] | undefined;
  type(type: PhoneNumberType): { pattern(): string; possibleLengths(): readonly number[] | undefined } | undefined;
  formats(): readonly {
    pattern(): string;
    format(): string;
    leadingDigitsPatterns(): readonly string[];
    nationalPrefixFormattingRule(): string | undefined;
    internationalFormat(): string;
  }[];
  ext(): string;
}

/** Types other than fixed line, in the order libphonenumber-js tries them (getNumberType.js). */
const NON_FIXED_LINE_TYPES = [
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const;

/** The first `$n` of a layout, where its trunk-prefix rule goes (formatNationalNumberUsingFormat.js). */
const FIRST_GROUP = /(\$\d)/;
/** libphonenumber-js's VALID_PUNCTUATION, copied from its constants.js: dashes, slashes, dots, spaces, brackets, tildes. */
const VALID_PUNCTUATION =
  '-\u2010-\u2015\u2212\u30FC\uFF0D' +
  '\uFF0F/' +
  '\uFF0E.' +
  ' \u00A0\u00AD\u200B\u2060\u3000' +
  '()\uFF08\uFF09\uFF3B\uFF3D\\[\\]' +
  '~\u2053\u223C\uFF5E';
/** An international layout turns each run of punctuation into one space (applyInternationalSeparatorStyle.js). */
const PUNCTUATION_RUNS = new RegExp(`[${VALID_PUNCTUATION}]+`, 'g');

const entirely = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);

interface KindRule {
  readonly type: PhoneNumberType;
  readonly lengths: readonly number[] | undefined;
  readonly pattern: RegExp;
}

/**
 * What `text.replace(pattern, template)` gives, with the template split once into text and group
 * numbers instead of `replace` reading it on every call, and the match shared by the two layouts.
 * Only `$1` to `$9` are split (every layout of the metadata uses nothing else); a template with
 * any other `$` sequence is left to `replace`.
 */
class Substitution {
  private constructor(
    private readonly template: string,
    private readonly parts: readonly (string | number)[] | undefined,
  ) {}

  static of(template: string, groupCount: number): Substitution {
    const parts = template.split(/\$([1-9])(?![0-9])/).map((part, index) => (index % 2 === 1 ? Number(part) : part));
    const plain = parts.every((part) => (typeof part === 'number' ? part <= groupCount : !part.includes('$')));
    return new Substitution(template, plain ? parts : undefined);
  }

  /** `match` is `pattern.exec(text)`: replace() matches the same way, once, from the start. */
  apply(text: string, pattern: RegExp, match: RegExpExecArray | null): string {
    if (this.parts === undefined) return text.replace(pattern, this.template);
    if (match === null) return text;
    let replaced = text.slice(0, match.index);
    for (const part of this.parts) replaced += typeof part === 'number' ? (match[part] ?? '') : part;
    return replaced + text.slice(match.index + match[0].length);
  }
}

interface Layout {
  /** Matched as libphonenumber-js does, with `search() === 0` on the last, most detailed pattern. */
  readonly leadingDigits: RegExp | undefined;
  readonly entirePattern: RegExp;
  readonly groups: RegExp;
  /** The national layout with the trunk prefix rule already put in. */
  readonly national: Substitution;
  readonly international: Substitution;
}

export interface Formats {
  readonly international: string;
  readonly national: string;
}

/**
 * One numbering plan's rules for the type and the layouts of a number, with every pattern compiled
 * once. libphonenumber-js builds a `RegExp` from the pattern's text on every match, and chooses the
 * layout anew for each format asked; this answers the same, following the library's steps
 * (getNumberType.js, format.js), for the cost of the matches alone.
 */
export class NumberingPlanRules {
  private readonly callingCode: string;
  private readonly nationalPattern: RegExp;
  private readonly possibleLengths: readonly number[];
  private readonly fixedLine: KindRule | undefined;
  /**
   * What a fixed line number may also be a mobile by: 'always' when the plan has no separate
   * mobile pattern (the metadata drops one equal to the fixed-line pattern), else the mobile rule.
   */
  private readonly mobileToo: 'always' | KindRule | undefined;
  private readonly otherKinds: readonly KindRule[];
  private readonly layouts: readonly Layout[];
  private readonly extensionPrefix: string;

  constructor(metadata: PlanMetadata) {
    this.callingCode = metadata.countryCallingCode();
    this.nationalPattern = entirely(metadata.nationalNumberPattern());
    const possibleLengths = metadata.possibleLengths();
    // The library itself refuses such metadata (isPossible.js): it predates version 1.0.18.
    if (possibleLengths === undefined)
      throw new Error(`libphonenumber-js metadata gives no possible lengths for +${this.callingCode}`);
    this.possibleLengths = possibleLengths;
    const kindRule = (type: PhoneNumberType): KindRule | undefined => {
      const definition = metadata.type(type);
      // A kind without a pattern matches nothing (isNumberTypeEqualTo).
      return definition?.pattern()
        ? { type, lengths: definition.possibleLengths(), pattern: entirely(definition.pattern()) }
        : undefined;
    };
    this.fixedLine = kindRule('FIXED_LINE');
    const mobile = metadata.type('MOBILE');
    this.mobileToo = mobile === undefined || mobile.pattern() === '' ? 'always' : kindRule('MOBILE');
    this.otherKinds = NON_FIXED_LINE_TYPES.flatMap((type) => kindRule(type) ?? []);
    this.layouts = metadata.formats().map((layout) => {
      const leadingDigits = layout.leadingDigitsPatterns().at(-1);
      const trunkPrefixRule = layout.nationalPrefixFormattingRule();
      // An alternative that matches nothing gives one slot per group of the pattern.
      const groupCount = new RegExp(`${layout.pattern()}|`).exec('')!.length - 1;
      return {
        leadingDigits: leadingDigits === undefined ? undefined : new RegExp(leadingDigits),
        entirePattern: entirely(layout.pattern()),
        groups: new RegExp(layout.pattern()),
        national: Substitution.of(
          trunkPrefixRule ? layout.format().replace(FIRST_GROUP, trunkPrefixRule) : layout.format(),
          groupCount,
        ),
        international: Substitution.of(layout.internationalFormat(), groupCount),
      };
    });
    this.extensionPrefix = metadata.ext();
  }

  /** Whether the length alone could be right, asked in the library's order (checkNumberLength.js). */
  isPossible(nationalNumber: string): boolean {
    const { length } = nationalNumber;
    const shortest = this.possibleLengths[0]!;
    if (length === shortest) return true;
    if (length < shortest || length > this.possibleLengths.at(-1)!) return false;
    return this.possibleLengths.indexOf(length, 1) >= 0;
  }

  /** How many digits the plan's longest national numbers have, of whatever kind. */
  get longestNationalNumber(): number {
    return this.possibleLengths.at(-1)!;
  }

  typeOf(nationalNumber: string): PhoneNumberType | undefined {
    if (!this.nationalPattern.test(nationalNumber)) return undefined;
    if (this.fixedLine && matches(this.fixedLine, nationalNumber)) {
      const mobileToo =
        this.mobileToo === 'always' || (this.mobileToo !== undefined && matches(this.mobileToo, nationalNumber));
      return mobileToo ? 'FIXED_LINE_OR_MOBILE' : 'FIXED_LINE';
    }
    return this.otherKinds.find((kind) => matches(kind, nationalNumber))?.type;
  }

  /** The international and national layouts, the layout chosen once for both (format.js). */
  format(nationalNumber: string, extension: string | undefined): Formats {
    const layout = this.layoutOf(nationalNumber);
    let international = nationalNumber;
    let national = nationalNumber;
    // Without a layout that fits, both are the bare digits (and no separators are touched).
    if (layout) {
      const match = layout.groups.exec(nationalNumber);
      international = layout.international
        .apply(nationalNumber, layout.groups, match)
        .replace(PUNCTUATION_RUNS, ' ')
        .trim();
      national = layout.national.apply(nationalNumber, layout.groups, match);
    }
    international = `+${this.callingCode} ${international}`;
    if (!extension) return { international, national };
    const extensionText = this.extensionPrefix + extension;
    return { international: international + extensionText, national: national + extensionText };
  }

  /** The first layout whose leading digits and pattern fit (chooseFormatForNumber). */
  private layoutOf(nationalNumber: string): Layout | undefined {
    for (const layout of this.layouts) {
      if (layout.leadingDigits !== undefined && nationalNumber.search(layout.leadingDigits) !== 0) continue;
      if (layout.entirePattern.test(nationalNumber)) return layout;
    }
    return undefined;
  }
}

const matches = (kind: KindRule, nationalNumber: string): boolean =>
  (kind.lengths === undefined || kind.lengths.includes(nationalNumber.length)) && kind.pattern.test(nationalNumber);
