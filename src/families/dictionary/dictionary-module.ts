import { ContainerModule } from 'inversify';
import { dictionaryRoutes } from './dictionary-routes.js';
import { CmuPronunciations } from './adapters/cmu-pronunciations.js';
import { WordNetFiles } from './adapters/wordnet-lexicon.js';
import { RememberedAnswers } from './adapters/remembered-answers.js';
import {
  DefineWord,
  FindAntonyms,
  FindSynonyms,
  type Antonyms,
  type Definitions,
  type Synonyms,
  type WordQuery,
} from './domain/dictionary-queries.js';
import { LexiconLoader, PronouncingDictionary } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';

/** Answers kept whole, per operation (a common word's is about 5 kB as JSON). */
const REMEMBERED_ANSWERS = 500;

/** What the family offers a library user. */
export interface DictionaryUseCases {
  readonly defineWord: WordQuery<Definitions>;
  readonly findSynonyms: WordQuery<Synonyms>;
  readonly findAntonyms: WordQuery<Antonyms>;
}
export const DictionaryUseCases = useCasesIdentifier<DictionaryUseCases>('DictionaryUseCases');

/** Definitions, synonyms and antonyms from WordNet, pronunciations from the CMU Pronouncing Dictionary. */
export const dictionaryModule = (): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(LexiconLoader, new WordNetFiles());
    constant(PronouncingDictionary, new CmuPronunciations());
    provide(DictionaryUseCases, [LexiconLoader, PronouncingDictionary], (lexicon, pronouncing) => ({
      defineWord: new RememberedAnswers(new DefineWord(lexicon, pronouncing), REMEMBERED_ANSWERS),
      findSynonyms: new RememberedAnswers(new FindSynonyms(lexicon), REMEMBERED_ANSWERS),
      findAntonyms: new RememberedAnswers(new FindAntonyms(lexicon), REMEMBERED_ANSWERS),
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
