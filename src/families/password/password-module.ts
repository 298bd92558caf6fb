import { ContainerModule } from 'inversify';
import { EffLongWordList } from './adapters/eff-long-word-list.js';
import { GeneratePassword } from './domain/generate-password.js';
import { PassphraseWords } from './domain/ports.js';
import { passwordRoutes } from './password-routes.js';
import { Randomness } from '../../domain/ports.js';
import { RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';

/** What the family offers a library user. */
export interface PasswordUseCases {
  readonly generatePassword: GeneratePassword;
}
export const PasswordUseCases = useCasesIdentifier<PasswordUseCases>('PasswordUseCases');

/** Passwords and passphrases drawn from the installation's randomness source (the system's CSPRNG). */
export const passwordModule = (): ContainerModule =>
  new ContainerModule((options) => {
    const { provide, constant } = typedBindings(options);
    constant(PassphraseWords, new EffLongWordList());
    provide(PasswordUseCases, [Randomness, PassphraseWords], (randomness, words) => ({
      generatePassword: new GeneratePassword(randomness, words),
    })).inSingletonScope();
    provide(RouteContribution, [PasswordUseCases], (useCases) => ({
      section: {
        name: 'Passwords',
        description: 'Random passwords of chosen characters, or passphrases of words from the EFF long word list.',
      },
      routes: passwordRoutes(useCases),
    }));
  });
