/**
 * ARPAbet, as the CMU Pronouncing Dictionary writes General American, into the IPA most
 * dictionaries print: the same phonemes, the stress marks moved from the vowel to the start of
 * its syllable.
 */

const VOWELS: Readonly<Record<string, readonly [stressed: string, unstressed: string]>> = {
  AA: ['ɑ', 'ɑ'],
  AE: ['æ', 'æ'],
  // Stressed it is the vowel of "cut", unstressed the schwa of "about".
  AH: ['ʌ', 'ə'],
  AO: ['ɔ', 'ɔ'],
  AW: ['aʊ', 'aʊ'],
  AY: ['aɪ', 'aɪ'],
  EH: ['ɛ', 'ɛ'],
  // The r-coloured vowel of "bird" stressed, of "butter" unstressed.
  ER: ['ɝ', 'ɚ'],
  EY: ['eɪ', 'eɪ'],
  IH: ['ɪ', 'ɪ'],
  IY: ['i', 'i'],
  OW: ['oʊ', 'oʊ'],
  OY: ['ɔɪ', 'ɔɪ'],
  UH: ['ʊ', 'ʊ'],
  UW: ['u', 'u'],
};

const CONSONANTS: Readonly<Record<string, string>> = {
  B: 'b',
  CH: 'tʃ',
  D: 'd',
  DH: 'ð',
  F: 'f',
  G: 'ɡ',
  HH: 'h',
  JH: 'dʒ',
  K: 'k',
  L: 'l',
  M: 'm',
  N: 'n',
  NG: 'ŋ',
  P: 'p',
  R: 'ɹ',
  S: 's',
  SH: 'ʃ',
  T: 't',
  TH: 'θ',
  V: 'v',
  W: 'w',
  Y: 'j',
  Z: 'z',
  ZH: 'ʒ',
};

/**
 * The consonant clusters English lets a syllable start with, beyond any single consonant but
 * NG: a stress mark goes before the longest of them that ends a run of consonants ("apply" is
 * əˈplaɪ, "obstruct" əbˈstɹʌkt), the rest closing the syllable before.
 */
const ONSETS = new Set([
  'P R',
  'P L',
  'P Y',
  'B R',
  'B L',
  'B Y',
  'T R',
  'T W',
  'D R',
  'D W',
  'K R',
  'K L',
  'K W',
  'K Y',
  'G R',
  'G L',
  'G W',
  'F R',
  'F L',
  'F Y',
  'TH R',
  'TH W',
  'SH R',
  'HH Y',
  'HH W',
  'M Y',
  'N Y',
  'V Y',
  'S P',
  'S T',
  'S K',
  'S M',
  'S N',
  'S L',
  'S W',
  'S F',
  'S P R',
  'S P L',
  'S P Y',
  'S T R',
  'S K R',
  'S K W',
  'S K Y',
]);

const canStartSyllable = (consonants: readonly string[]): boolean =>
  consonants.length === 0 || (consonants.length === 1 ? consonants[0] !== 'NG' : ONSETS.has(consonants.join(' ')));

interface Phoneme {
  readonly symbol: string;
  /** For a vowel its stress, 0, 1 or 2; undefined for a consonant. */
  readonly stress?: number;
}

/** A phoneme as written: its symbol, and for a vowel a last digit, its stress. */
const PHONEME = /^[A-Z]+[012]?$/;

function phonemesOf(arpabet: string): Phoneme[] {
  return arpabet
    .trim()
    .split(/\s+/)
    .map((written) => {
      // Tested, then cut: a match's groups would be a list more for each phoneme of each answer.
      if (!PHONEME.test(written)) throw new Error(`Not an ARPAbet phoneme: "${written}"`);
      const last = written.charAt(written.length - 1);
      return last >= '0' && last <= '2' ? { symbol: written.slice(0, -1), stress: Number(last) } : { symbol: written };
    });
}

/**
 * One ARPAbet pronunciation in IPA ("R EH1 K ER0 D" → "ˈɹɛkɚd"). Words of one syllable carry
 * no stress mark, as dictionaries print them ("R AH1 N" → "ɹʌn").
 */
export function ipaOf(arpabet: string): string {
  const phonemes = phonemesOf(arpabet);
  const vowels = phonemes.filter((phoneme) => phoneme.stress !== undefined).length;
  const marks: string[] = phonemes.map(() => '');
  let consonantsBefore: number[] = [];
  let firstVowel = true;
  phonemes.forEach((phoneme, at) => {
    if (phoneme.stress === undefined) {
      consonantsBefore.push(at);
      return;
    }
    if (vowels > 1 && phoneme.stress > 0) {
      // The syllable starts at the longest run of the consonants before the vowel that may start one.
      let onset = firstVowel ? consonantsBefore : [];
      if (!firstVowel) {
        for (let from = 0; from <= consonantsBefore.length; from++) {
          const candidate = consonantsBefore.slice(from);
          if (canStartSyllable(candidate.map((index) => phonemes[index]!.symbol))) {
            onset = candidate;
            break;
          }
        }
      }
      marks[onset[0] ?? at] = phoneme.stress === 1 ? 'ˈ' : 'ˌ';
    }
    consonantsBefore = [];
    firstVowel = false;
  });
  return phonemes
    .map((phoneme, at) => {
      const sound =
        phoneme.stress === undefined
          ? CONSONANTS[phoneme.symbol]
          : VOWELS[phoneme.symbol]?.[phoneme.stress === 0 ? 1 : 0];
      if (sound === undefined) throw new Error(`Not an ARPAbet phoneme: "${phoneme.symbol}"`);
      return marks[at] + sound;
    })
    .join('');
}

/** Where a pronunciation's primary stress falls: 0 for the first syllable; undefined without one. */
export function primaryStressSyllable(arpabet: string): number | undefined {
  let syllable = 0;
  for (const phoneme of phonemesOf(arpabet)) {
    if (phoneme.stress === undefined) continue;
    if (phoneme.stress === 1) return syllable;
    syllable += 1;
  }
  return undefined;
}
