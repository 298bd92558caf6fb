import 'reflect-metadata';
import { Container } from 'inversify';
import type { Knex } from 'knex';
import type Koa from 'koa';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { BwipBarcodeRenderer } from './adapters/barcode/bwip-barcode-renderer.js';
import { CachedBarcodeRenderer } from './adapters/barcode/cached-barcode-renderer.js';
import { LeanQrBarcodeRenderer } from './adapters/barcode/lean-qr-barcode-renderer.js';
import { SystemClock } from './adapters/clock/system-clock.js';
import { AesGcmCipher } from './adapters/crypto/aes-gcm-cipher.js';
import { loadKeyRing } from './adapters/crypto/key-ring-source.js';
import { GeoNamesGazetteer } from './adapters/geonames/geonames-gazetteer.js';
import { HiveGameData } from './adapters/hive/hive-game-data.js';
import { createApp } from './adapters/http/app.js';
import type { RouteTable } from './adapters/http/route-table.js';
import { barcodeRoutes } from './adapters/http/routes/barcode-routes.js';
import { cryptoRedirects, cryptoRoutes } from './adapters/http/routes/crypto-routes.js';
import { dictionaryRoutes } from './adapters/http/routes/dictionary-routes.js';
import { gameRoutes } from './adapters/http/routes/game-routes.js';
import { locationRoutes } from './adapters/http/routes/location-routes.js';
import { phoneRoutes } from './adapters/http/routes/phone-routes.js';
import { tokenRoutes } from './adapters/http/routes/token-routes.js';
import { userRoutes } from './adapters/http/routes/user-routes.js';
import { LibphonenumberNumbering } from './adapters/libphonenumber/libphonenumber-numbering.js';
import { createLogger } from './adapters/logging/logger.js';
import { LibraryPlusCodes } from './adapters/open-location-code/library-plus-codes.js';
import { migrateToLatest, openDatabase, type DatabaseSettings } from './adapters/persistence/knex/database.js';
import { KnexTokenStore } from './adapters/persistence/knex/knex-token-store.js';
import { KnexUserStore } from './adapters/persistence/knex/knex-user-store.js';
import { MemoryTables } from './adapters/persistence/memory/memory-tables.js';
import { MemoryTokenStore } from './adapters/persistence/memory/memory-token-store.js';
import { MemoryUserStore } from './adapters/persistence/memory/memory-user-store.js';
import { MemoryLoginThrottle } from './adapters/throttle/memory-login-throttle.js';
import { CachingLexicon } from './adapters/wordnet/caching-lexicon.js';
import { WordNetLexicon } from './adapters/wordnet/wordnet-lexicon.js';
import type { AppConfig } from './config/config.js';
import { Authenticate } from './domain/auth/authenticate.js';
import { LogInWithPassword } from './domain/auth/log-in-with-password.js';
import { LOGIN_THROTTLE_POLICY, LoginThrottle } from './domain/auth/login-throttle.js';
import { VerifiedTokenCache } from './domain/auth/verified-token-cache.js';
import { BarcodeRenderer } from './domain/barcode/barcode-renderer.js';
import { GenerateBarcode, ListSymbologies } from './domain/barcode/generate-barcode.js';
import { Clock } from './domain/clock.js';
import { DecryptText, EncryptText } from './domain/crypto/crypt-text.js';
import { Cipher } from './domain/crypto/ports.js';
import { DefineWord, FindAntonyms, FindSynonyms } from './domain/dictionary/dictionary-queries.js';
import { Lexicon } from './domain/dictionary/lexicon.js';
import { GameData } from './domain/game/game-data.js';
import { GetMaps, GetPlayerStats } from './domain/game/game-queries.js';
import { FindNearbyPlaces, FindPlaces, LookUpPlusCode } from './domain/location/location-queries.js';
import { Gazetteer } from './domain/location/places.js';
import { PlusCodes } from './domain/location/plus-codes.js';
import { GetPhoneDetails } from './domain/phone/phone-details.js';
import { PhoneNumbering } from './domain/phone/phone-numbering.js';
import { IssueToken } from './domain/tokens/issue-token.js';
import { RevokeToken, TokenReader } from './domain/tokens/manage-tokens.js';
import { TokenStore } from './domain/tokens/ports.js';
import { TokenUsageMeter } from './domain/tokens/usage-meter.js';
import { CreateUser } from './domain/users/create-user.js';
import { DeleteUser, GetUser, ListUsers, UpdateUser } from './domain/users/manage-users.js';
import { PasswordVerifier, scryptPasswordVerifier } from './domain/users/password.js';
import { UserStore } from './domain/users/ports.js';

/** Identifiers of what only the composition root and transports know about. */
export const Config = Symbol.for('AppConfig');
export const Log = Symbol.for('Logger');
export const Database = Symbol.for('Database');
export const Routes = Symbol.for('RouteTable');
export const HttpApp = Symbol.for('HttpApp');

export interface Application {
  readonly container: Container;
  readonly config: AppConfig;
  readonly logger: Logger;
  /** Writes buffered log lines now rather than at the next batch. */
  flushLogs(): void;
  /** Writes token use counts, releases the database connection and writes out buffered logs. */
  close(): Promise<Closed>;
}

export interface Closed {
  /** False when the token use counts not yet written could not be (the failure is logged). */
  readonly usageWritten: boolean;
}

export interface BuildOptions {
  /** Where logs go: stdout for the server, stderr for the CLI (whose stdout is its answer). */
  readonly logFd?: number;
  /** Apply pending migrations before returning (default true). */
  readonly migrate?: boolean;
}

export function databaseSettingsOf(config: AppConfig): DatabaseSettings | undefined {
  switch (config.storage) {
    case 'memory':
      return undefined;
    case 'sqlite':
      return { client: 'sqlite', filename: config.database.sqliteFile ?? join(config.dataDir, 'utility-api.sqlite') };
    case 'postgres':
      return { client: 'postgres', url: config.database.url! };
  }
}

/** The composition root: config → adapters → use cases → transports. */
export async function buildApplication(config: AppConfig, options: BuildOptions = {}): Promise<Application> {
  const logging = createLogger(config.log.level, options.logFd);
  const logger = logging.logger;
  const container = new Container();
  container.bind(Config).toConstantValue(config);
  container.bind(Log).toConstantValue(logger);

  const settings = databaseSettingsOf(config);
  // While migrating at start, failing to reach the database is the start-up failure itself, which
  // the caller reports in one line; a warning of it before that line would say it twice.
  let migrating = true;
  const db = settings
    ? openDatabase(settings, (message) => {
        if (!migrating) logger.warn(message);
      })
    : undefined;
  try {
    if (db && options.migrate !== false) {
      const applied = await migrateToLatest(db);
      if (applied.length > 0) logger.info({ applied }, 'database migrated');
    }
    migrating = false;
    bindStores(container, db);

    container.bind(Clock).toConstantValue(new SystemClock());
    const { baseUrl, timeoutMs, mapsTtlMs, playerTtlMs, cacheEntries, backoffMs } = config.hive;
    container.bind(GameData).toConstantValue(
      new HiveGameData({ baseUrl: baseUrl.replace(/\/+$/, ''), timeoutMs, mapsTtlMs, playerTtlMs, maxEntries: cacheEntries, defaultBackoffMs: backoffMs }, logger),
    );
    container.bind(GetMaps).toResolvedValue((games: GameData) => new GetMaps(games), [GameData]).inSingletonScope();
    container.bind(GetPlayerStats).toResolvedValue((games: GameData) => new GetPlayerStats(games), [GameData]).inSingletonScope();
    container.bind(PhoneNumbering).toConstantValue(new LibphonenumberNumbering());
    container.bind(GetPhoneDetails).toResolvedValue((numbering: PhoneNumbering) => new GetPhoneDetails(numbering), [PhoneNumbering]).inSingletonScope();
    container.bind(Gazetteer).toConstantValue(new GeoNamesGazetteer());
    container.bind(PlusCodes).toConstantValue(new LibraryPlusCodes());
    container.bind(FindPlaces).toResolvedValue((gazetteer: Gazetteer) => new FindPlaces(gazetteer), [Gazetteer]).inSingletonScope();
    container.bind(FindNearbyPlaces).toResolvedValue((gazetteer: Gazetteer) => new FindNearbyPlaces(gazetteer), [Gazetteer]).inSingletonScope();
    container.bind(LookUpPlusCode).toResolvedValue(
      (plusCodes: PlusCodes, gazetteer: Gazetteer) => new LookUpPlusCode(plusCodes, gazetteer),
      [PlusCodes, Gazetteer],
    ).inSingletonScope();
    container.bind(Lexicon).toConstantValue(new CachingLexicon(new WordNetLexicon(), 500));
    container.bind(DefineWord).toResolvedValue((lexicon: Lexicon) => new DefineWord(lexicon), [Lexicon]).inSingletonScope();
    container.bind(FindSynonyms).toResolvedValue((lexicon: Lexicon) => new FindSynonyms(lexicon), [Lexicon]).inSingletonScope();
    container.bind(FindAntonyms).toResolvedValue((lexicon: Lexicon) => new FindAntonyms(lexicon), [Lexicon]).inSingletonScope();
    const { maxContentBytes, maxPixels, cacheBytes } = config.barcode;
    container.bind(BarcodeRenderer).toConstantValue(new CachedBarcodeRenderer(new LeanQrBarcodeRenderer({ maxPixels }, new BwipBarcodeRenderer({ maxPixels })), cacheBytes));
    container.bind(GenerateBarcode).toResolvedValue((renderer: BarcodeRenderer) => new GenerateBarcode(renderer, maxContentBytes), [BarcodeRenderer]).inSingletonScope();
    container.bind(ListSymbologies).toResolvedValue((renderer: BarcodeRenderer) => new ListSymbologies(renderer), [BarcodeRenderer]).inSingletonScope();
    container.bind(Cipher).toConstantValue(new AesGcmCipher(loadKeyRing(config, logger)));
    bindUseCases(container, config);

    container.bind(Routes).toResolvedValue(
      (encrypt: EncryptText, decrypt: DecryptText, cipher: Cipher): RouteTable => ({
        routes: [
          ...cryptoRoutes({
            encrypt,
            decrypt,
            maxPlaintextBytes: config.encryption.maxPlaintextBytes,
            maxCiphertextLength: cipher.ciphertextLength(config.encryption.maxPlaintextBytes),
          }),
          ...userRoutes({
            createUser: container.get(CreateUser),
            getUser: container.get(GetUser),
            updateUser: container.get(UpdateUser),
            deleteUser: container.get(DeleteUser),
          }),
          ...tokenRoutes({ issueToken: container.get(IssueToken), reader: container.get(TokenReader), revokeToken: container.get(RevokeToken) }),
          ...gameRoutes({ getMaps: container.get(GetMaps), getPlayerStats: container.get(GetPlayerStats) }),
          ...phoneRoutes({ getPhoneDetails: container.get(GetPhoneDetails) }),
          ...locationRoutes({ findPlaces: container.get(FindPlaces), findNearbyPlaces: container.get(FindNearbyPlaces), lookUpPlusCode: container.get(LookUpPlusCode) }),
          ...dictionaryRoutes({ defineWord: container.get(DefineWord), findSynonyms: container.get(FindSynonyms), findAntonyms: container.get(FindAntonyms) }),
          ...barcodeRoutes({ generate: container.get(GenerateBarcode), listSymbologies: container.get(ListSymbologies), maxContentBytes: config.barcode.maxContentBytes }),
        ],
        redirects: [...cryptoRedirects],
      }),
      [EncryptText, DecryptText, Cipher],
    ).inSingletonScope();
    container.bind(HttpApp).toResolvedValue(
      (table: RouteTable, authenticate: Authenticate, logIn: LogInWithPassword): Koa =>
        createApp({ table, authenticate, logIn, logger, accessLog: logging.accessLog, maxBodyBytes: config.http.maxBodyBytes }),
      [Routes, Authenticate, LogInWithPassword],
    ).inSingletonScope();
  } catch (error) {
    await db?.destroy();
    logging.close();
    throw error;
  }

  // Token use counts are written in batches, and once more at close so a clean stop loses none.
  const meter = container.get(TokenUsageMeter);
  const flushUsage = async () => {
    try {
      await meter.flush();
    } catch (error) {
      logger.error({ err: error }, 'could not write token usage counts; will retry');
    }
  };
  const usageTimer = setInterval(() => void flushUsage(), config.auth.usageFlushIntervalMs);
  usageTimer.unref();
  const close = async (): Promise<Closed> => {
    clearInterval(usageTimer);
    let usageWritten = true;
    try {
      await meter.flush();
    } catch (error) {
      // The last chance to write them.
      usageWritten = false;
      logger.error({ err: error }, 'could not write token usage counts at close; they are lost');
    }
    await db?.destroy();
    logging.close();
    return { usageWritten };
  };
  return { container, config, logger, flushLogs: logging.flush, close };
}

function bindStores(container: Container, db: Knex | undefined): void {
  if (db) {
    container.bind(Database).toConstantValue(db);
    container.bind(UserStore).toConstantValue(new KnexUserStore(db));
    container.bind(TokenStore).toConstantValue(new KnexTokenStore(db));
  } else {
    const tables = new MemoryTables();
    container.bind(UserStore).toConstantValue(new MemoryUserStore(tables));
    container.bind(TokenStore).toConstantValue(new MemoryTokenStore(tables));
  }
}

function bindUseCases(container: Container, config: AppConfig): void {
  container.bind(VerifiedTokenCache).toResolvedValue(
    (clock: Clock) => new VerifiedTokenCache(clock, config.auth.verifiedTokenTtlMs),
    [Clock],
  ).inSingletonScope();
  container.bind(TokenUsageMeter).toResolvedValue((tokens: TokenStore) => new TokenUsageMeter(tokens), [TokenStore]).inSingletonScope();
  container.bind(Authenticate).toResolvedValue(
    (tokens: TokenStore, users: UserStore, clock: Clock, cache: VerifiedTokenCache, usage: TokenUsageMeter) => new Authenticate(tokens, users, clock, cache, usage),
    [TokenStore, UserStore, Clock, VerifiedTokenCache, TokenUsageMeter],
  ).inSingletonScope();
  container.bind(LoginThrottle).toConstantValue(new MemoryLoginThrottle(LOGIN_THROTTLE_POLICY));
  container.bind(PasswordVerifier).toConstantValue(scryptPasswordVerifier);
  container.bind(LogInWithPassword).toResolvedValue(
    (users: UserStore, throttle: LoginThrottle, verifier: PasswordVerifier, clock: Clock) => new LogInWithPassword(users, throttle, verifier, clock),
    [UserStore, LoginThrottle, PasswordVerifier, Clock],
  ).inSingletonScope();
  container.bind(EncryptText).toResolvedValue((cipher: Cipher) => new EncryptText(cipher), [Cipher]).inSingletonScope();
  container.bind(DecryptText).toResolvedValue((cipher: Cipher) => new DecryptText(cipher), [Cipher]).inSingletonScope();
  container.bind(CreateUser).toResolvedValue((users: UserStore, clock: Clock) => new CreateUser(users, clock), [UserStore, Clock]).inSingletonScope();
  container.bind(GetUser).toResolvedValue((users: UserStore) => new GetUser(users), [UserStore]).inSingletonScope();
  container.bind(ListUsers).toResolvedValue((users: UserStore) => new ListUsers(users), [UserStore]).inSingletonScope();
  container.bind(UpdateUser).toResolvedValue(
    (users: UserStore, clock: Clock, cache: VerifiedTokenCache) => new UpdateUser(users, clock, cache),
    [UserStore, Clock, VerifiedTokenCache],
  ).inSingletonScope();
  container.bind(DeleteUser).toResolvedValue((users: UserStore, cache: VerifiedTokenCache) => new DeleteUser(users, cache), [UserStore, VerifiedTokenCache]).inSingletonScope();
  container.bind(TokenReader).toResolvedValue(
    (tokens: TokenStore, users: UserStore, usage: TokenUsageMeter) => new TokenReader(tokens, users, usage),
    [TokenStore, UserStore, TokenUsageMeter],
  ).inSingletonScope();
  container.bind(RevokeToken).toResolvedValue(
    (tokens: TokenStore, reader: TokenReader, cache: VerifiedTokenCache) => new RevokeToken(tokens, reader, cache),
    [TokenStore, TokenReader, VerifiedTokenCache],
  ).inSingletonScope();
  container.bind(IssueToken).toResolvedValue(
    (users: UserStore, tokens: TokenStore, clock: Clock) => new IssueToken(users, tokens, clock),
    [UserStore, TokenStore, Clock],
  ).inSingletonScope();
}
