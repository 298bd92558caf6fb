import { ContainerModule } from 'inversify';
import { dictionaryRoutes } from './dictionary-routes.js';
import { CachingLexicon } from './adapters/caching-lexicon.js';
import { WordNetLexicon } from './adapters/wordnet-lexicon.js';
import { DefineWord, FindAntonyms, FindSynonyms } from './domain/dictionary-queries.js';
import { Lexicon } from './domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';

/** Words looked up most often, kept answered: the WordNet files are read per sense. */
const CACHED_LOOKUPS = 500;

/** What the family offers a library user. */
export interface DictionaryUseCases {
  readonly defineWord: DefineWord;
  readonly findSynonyms: FindSynonyms;
  readonly findAntonyms: FindAntonyms;
}
export const DictionaryUseCases = useCasesIdentifier<DictionaryUseCases>('DictionaryUseCases');

/** Definitions, synonyms and antonyms from WordNet. */
export const dictionaryModule = (): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Lexicon).toConstantValue(new CachingLexicon(new WordNetLexicon(), CACHED_LOOKUPS));
    bind(DefineWord)
      .toResolvedValue((lexicon: Lexicon) => new DefineWord(lexicon), [Lexicon])
      .inSingletonScope();
    bind(FindSynonyms)
      .toResolvedValue((lexicon: Lexicon) => new FindSynonyms(lexicon), [Lexicon])
      .inSingletonScope();
    bind(FindAntonyms)
      .toResolvedValue((lexicon: Lexicon) => new FindAntonyms(lexicon), [Lexicon])
      .inSingletonScope();
    bind(DictionaryUseCases).toResolvedValue(
      (defineWord: DefineWord, findSynonyms: FindSynonyms, findAntonyms: FindAntonyms): DictionaryUseCases => ({
        defineWord,
        findSynonyms,
        findAntonyms,
      }),
      [DefineWord, FindSynonyms, FindAntonyms],
    );
    bind(RouteContribution).toResolvedValue(
      (defineWord: DefineWord, findSynonyms: FindSynonyms, findAntonyms: FindAntonyms): RouteContribution => ({
        routes: dictionaryRoutes({ defineWord, findSynonyms, findAntonyms }),
      }),
      [DefineWord, FindSynonyms, FindAntonyms],
    );
  });
