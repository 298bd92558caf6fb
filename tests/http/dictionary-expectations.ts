/**
 * What a person expects first of 50 common words (issue 30's table): the first sense's part of
 * speech and the start of its gloss; where the word has them, a word of the first synonym group
 * and the first antonym; and how it is said (the first pronunciation, in IPA). `null` where the
 * person has no clear first answer (the first synonym group of "good" is "bang-up, bully,
 * corking": right, but nobody's first thought).
 */
export interface ExpectedFirstAnswer {
  readonly word: string;
  readonly partOfSpeech: 'noun' | 'verb' | 'adjective' | 'adverb';
  readonly definitionStart: string;
  readonly synonym: string | null;
  readonly antonym: string | null;
  readonly ipa: string;
}

const row = (
  word: string,
  partOfSpeech: ExpectedFirstAnswer['partOfSpeech'],
  definitionStart: string,
  synonym: string | null,
  antonym: string | null,
  ipa: string,
): ExpectedFirstAnswer => ({ word, partOfSpeech, definitionStart, synonym, antonym, ipa });

export const EXPECTED_FIRST_ANSWERS: readonly ExpectedFirstAnswer[] = [
  row('run', 'verb', "move fast by using one's feet", null, null, 'ɹʌn'),
  row('ran', 'verb', "move fast by using one's feet", null, null, 'ɹæn'),
  row('go', 'verb', 'change location', 'travel', null, 'ɡoʊ'),
  row('went', 'verb', 'change location', 'travel', null, 'wɛnt'),
  row('get', 'verb', 'come into the possession of something', 'acquire', null, 'ɡɛt'),
  row('good', 'adjective', 'having desirable or positive qualities', null, 'bad', 'ɡʊd'),
  row('bad', 'adjective', 'having undesirable or negative qualities', 'awful', 'good', 'bæd'),
  row('big', 'adjective', 'above average in size', 'large', 'little', 'bɪɡ'),
  row('small', 'adjective', 'limited or below average', 'little', 'large', 'smɔl'),
  row('fast', 'adjective', 'acting or moving or capable of acting or moving quickly', 'quick', 'slow', 'fæst'),
  row('slow', 'adjective', 'not moving quickly', 'sluggish', 'fast', 'sloʊ'),
  row('happy', 'adjective', 'enjoying or showing or marked by joy', null, 'unhappy', 'ˈhæpi'),
  row('sad', 'adjective', 'experiencing or showing sorrow', null, 'glad', 'sæd'),
  row('hot', 'adjective', 'used of physical heat', 'heated', 'cold', 'hɑt'),
  row('cold', 'adjective', 'having a low or inadequate temperature', 'frigid', 'hot', 'koʊld'),
  row('old', 'adjective', '(used especially of persons) having lived', 'aged', 'young', 'oʊld'),
  row('new', 'adjective', 'not of long duration', 'recent', 'old', 'nu'),
  row('strong', 'adjective', 'having strength or power greater', null, 'weak', 'stɹɔŋ'),
  row('weak', 'adjective', 'wanting in physical strength', null, 'strong', 'wik'),
  row('dark', 'adjective', 'devoid of or deficient in light', 'dim', 'light', 'dɑɹk'),
  row('fair', 'adjective', 'free from favoritism', 'just', 'unfair', 'fɛɹ'),
  row('house', 'noun', 'a dwelling that serves as living quarters', null, null, 'haʊs'),
  row('dog', 'noun', 'a member of the genus Canis', 'domestic dog', null, 'dɔɡ'),
  row('cat', 'noun', 'feline mammal', 'true cat', null, 'kæt'),
  row('car', 'noun', 'a motor vehicle with four wheels', 'automobile', null, 'kɑɹ'),
  row('book', 'noun', 'a written work or composition', 'volume', null, 'bʊk'),
  row('water', 'noun', 'binary compound that occurs at room temperature', 'H2O', null, 'ˈwɔtɚ'),
  row('fire', 'noun', 'the event of something burning', null, null, 'ˈfaɪɚ'),
  row('rock', 'noun', 'a lump or mass of hard consolidated mineral matter', 'stone', null, 'ɹɑk'),
  row('spring', 'noun', 'the season of growth', 'springtime', null, 'spɹɪŋ'),
  row('day', 'noun', 'time for Earth to make a complete rotation', null, 'night', 'deɪ'),
  row('man', 'noun', 'an adult person who is male', 'adult male', 'woman', 'mæn'),
  row('woman', 'noun', 'an adult female person', 'adult female', 'man', 'ˈwʊmən'),
  row('child', 'noun', 'a young person of either sex', 'kid', 'parent', 'tʃaɪld'),
  row('children', 'noun', 'a young person of either sex', 'kid', 'parent', 'ˈtʃɪldɹən'),
  row('geese', 'noun', 'web-footed long-necked', null, null, 'ɡis'),
  row('mice', 'noun', 'any of numerous small rodents', null, null, 'maɪs'),
  row(
    'computer',
    'noun',
    'a machine for performing calculations automatically',
    'computing machine',
    null,
    'kəmˈpjutɚ',
  ),
  row('phone', 'noun', 'electronic equipment that converts sound', 'telephone', null, 'foʊn'),
  row('doctor', 'noun', 'a licensed medical practitioner', 'physician', null, 'ˈdɑktɚ'),
  row('teacher', 'noun', 'a person whose occupation is teaching', 'instructor', null, 'ˈtitʃɚ'),
  row('city', 'noun', 'a large and densely populated urban area', 'metropolis', null, 'ˈsɪti'),
  row('country', 'noun', 'a politically organized body of people', 'nation', null, 'ˈkʌntɹi'),
  row('bread', 'noun', 'food made from dough', 'breadstuff', null, 'bɹɛd'),
  row('apple', 'noun', 'fruit with red or yellow or green skin', null, null, 'ˈæpəl'),
  row('love', 'verb', 'have a great affection or liking', 'enjoy', 'hate', 'lʌv'),
  row('hate', 'verb', 'dislike intensely', 'detest', 'love', 'heɪt'),
  row('write', 'verb', 'produce a literary work', 'compose', null, 'ɹaɪt'),
  row('drink', 'verb', 'take in liquids', 'imbibe', null, 'dɹɪŋk'),
  row('walk', 'verb', "use one's feet to advance", null, 'ride', 'wɔk'),
  row('talk', 'verb', 'exchange thoughts', 'speak', null, 'tɔk'),
  row('buy', 'verb', 'obtain by purchase', 'purchase', 'sell', 'baɪ'),
  row('sell', 'verb', 'exchange or deliver for money', null, 'buy', 'sɛl'),
  row('begin', 'verb', 'take the first step', 'start', 'end', 'bɪˈɡɪn'),
  row('open', 'verb', 'cause to open', 'open up', 'close', 'ˈoʊpən'),
  row('think', 'verb', 'judge or regard', 'believe', null, 'θɪŋk'),
];
