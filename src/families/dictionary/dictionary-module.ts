import { ContainerModule } from 'inversify';
import { dictionaryRoutes } from './dictionary-routes.js';
import { CachingLexicon } from './adapters/caching-lexicon.js';
import { CmuPronunciations } from './adapters/cmu-pronunciations.js';
import { WordNetLexicon } from './adapters/wordnet-lexicon.js';
import { DefineWord, FindAntonyms, FindSynonyms } from './domain/dictionary-queries.js';
import { Lexicon, PronouncingDictionary } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';

/** Words looked up most often, kept answered: the WordNet files are read per sense. */
const CACHED_LOOKUPS = 500;

/** What the family offers a library user. */
export interface DictionaryUseCases {
  readonly defineWord: DefineWord;
  readonly findSynonyms: FindSynonyms;
  readonly findAntonyms: FindAntonyms;
}
export const DictionaryUseCases = useCasesIdentifier<DictionaryUseCases>('DictionaryUseCases');

/** Definitions, synonyms and antonyms from WordNet, pronunciations from the CMU Pronouncing Dictionary. */
export const dictionaryModule = (): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(Lexicon, new CachingLexicon(new WordNetLexicon(), CACHED_LOOKUPS));
    constant(PronouncingDictionary, new CmuPronunciations());
    provide(DictionaryUseCases, [Lexicon, PronouncingDictionary], (lexicon, pronouncing) => ({
      defineWord: new DefineWord(lexicon, pronouncing),
      findSynonyms: new FindSynonyms(lexicon),
      findAntonyms: new FindAntonyms(lexicon),
    })).inSingletonScope();
    provide(RouteContribution, [DictionaryUseCases], (useCases) => ({
      section: {
        name: 'Dictionary',
        description:
          'Definitions, synonyms and antonyms of English words (WordNet 3.1), with their pronunciations (CMU Pronouncing Dictionary).',
      },
      routes: dictionaryRoutes(useCases),
    }));
  });
