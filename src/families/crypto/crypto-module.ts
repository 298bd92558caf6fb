import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { AesGcmCipher } from './adapters/aes-gcm-cipher.js';
import { loadKeyRing, type KeyRingSettings } from './adapters/key-ring-source.js';
import { cryptoRedirects, cryptoRoutes } from './crypto-routes.js';
import { DecryptText, EncryptText } from './domain/crypt-text.js';
import { Cipher } from './domain/ports.js';
import { Randomness } from '../../domain/ports.js';
import { Log, RouteContribution, useCasesIdentifier } from '../../composition/identifiers.js';

export interface CryptoSettings extends KeyRingSettings {
  readonly maxPlaintextBytes: number;
}

/** What the family offers a library user. */
export interface CryptoUseCases {
  readonly encryptText: EncryptText;
  readonly decryptText: DecryptText;
}
export const CryptoUseCases = useCasesIdentifier<CryptoUseCases>('CryptoUseCases');

export const cryptoModule = (settings: CryptoSettings): ContainerModule =>
  new ContainerModule(({ bind }) => {
    bind(Cipher)
      .toResolvedValue(
        (logger: Logger, randomness: Randomness) => new AesGcmCipher(loadKeyRing(settings, logger), randomness),
        [Log, Randomness],
      )
      .inSingletonScope();
    bind(EncryptText)
      .toResolvedValue((cipher: Cipher) => new EncryptText(cipher), [Cipher])
      .inSingletonScope();
    bind(DecryptText)
      .toResolvedValue((cipher: Cipher) => new DecryptText(cipher), [Cipher])
      .inSingletonScope();
    bind(CryptoUseCases).toResolvedValue(
      (encryptText: EncryptText, decryptText: DecryptText): CryptoUseCases => ({ encryptText, decryptText }),
      [EncryptText, DecryptText],
    );
    bind(RouteContribution).toResolvedValue(
      (encrypt: EncryptText, decrypt: DecryptText, cipher: Cipher): RouteContribution => ({
        routes: cryptoRoutes({
          encrypt,
          decrypt,
          maxPlaintextBytes: settings.maxPlaintextBytes,
          maxCiphertextLength: cipher.ciphertextLength(settings.maxPlaintextBytes),
        }),
        redirects: cryptoRedirects,
      }),
      [EncryptText, DecryptText, Cipher],
    );
  });
