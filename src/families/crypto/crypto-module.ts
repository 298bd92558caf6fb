import { ContainerModule } from 'inversify';
import { AesGcmCipher } from './adapters/aes-gcm-cipher.js';
import { loadKeyRing, type KeyRingSettings } from './adapters/key-ring-source.js';
import { cryptoRedirects, cryptoRoutes } from './crypto-routes.js';
import { DecryptText, EncryptText } from './domain/crypt-text.js';
import { Cipher } from './domain/ports.js';
import { Randomness } from '../../domain/ports.js';
import { Log, RouteContribution, useCasesIdentifier } from '../../wiring/identifiers.js';
import { typedBindings } from '../../wiring/typed-binding.js';

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
  new ContainerModule((options) => {
    const { provide } = typedBindings(options);
    provide(
      Cipher,
      [Log, Randomness],
      (logger, randomness) => new AesGcmCipher(loadKeyRing(settings, logger), randomness),
    ).inSingletonScope();
    provide(CryptoUseCases, [Cipher], (cipher) => ({
      encryptText: new EncryptText(cipher),
      decryptText: new DecryptText(cipher),
    })).inSingletonScope();
    provide(RouteContribution, [CryptoUseCases, Cipher], ({ encryptText, decryptText }, cipher) => ({
      section: {
        name: 'Cryptography',
        description: "Encrypt a text with the installation's key and decrypt what it encrypted (AES-256-GCM).",
      },
      routes: cryptoRoutes({
        encrypt: encryptText,
        decrypt: decryptText,
        maxPlaintextBytes: settings.maxPlaintextBytes,
        maxCiphertextLength: cipher.ciphertextLength(settings.maxPlaintextBytes),
      }),
      redirects: cryptoRedirects,
    }));
  });
