import { expect } from 'chai';
import { OPERATOR, actorFor, type Actor } from '../../src/domain/identity/actor.js';
import { MemoryTokenStore } from '../../src/families/users-and-tokens/adapters/memory/memory-token-store.js';
import type { TokenStore } from '../../src/families/users-and-tokens/domain/tokens/ports.js';
import { TokenUsageMeter } from '../../src/families/users-and-tokens/domain/tokens/usage-meter.js';
import { usernameFromName } from '../../src/families/users-and-tokens/domain/users/create-user.js';
import { MemoryUserStore } from '../../src/families/users-and-tokens/adapters/memory/memory-user-store.js';
import { checkOutranks, targetUser } from '../../src/families/users-and-tokens/domain/users/target-user.js';
import { checkGrant } from '../../src/families/users-and-tokens/domain/users/user-rules.js';
import { expectLeftTag } from '../support/either.js';
import { aToken, aUser } from '../support/mothers.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

const holder = (userPermissions: string[], tokenScopes: string[]): Actor => {
  const user = aUser({ permissions: userPermissions });
  return actorFor({ user, token: aToken(user.id, { scopes: tokenScopes }), issuer: null });
};

describe('domain: granting permissions without escalation', () => {
  it('lets an actor give only what both its token and its user hold, wildcards included', () => {
    const actor = holder(['Cryptography::*', 'Users::Read'], ['Cryptography::Encrypt', 'Users::Read']);
    expect(checkGrant(actor, ['Cryptography::Encrypt'], [], SERVICE_PERMISSIONS)).to.equal(undefined);
    expect(checkGrant(actor, ['Cryptography::Decrypt'], [], SERVICE_PERMISSIONS)).to.deep.equal({
      _tag: 'NotAuthorized',
      permission: 'Cryptography::Decrypt',
    });
    expect(checkGrant(actor, ['Cryptography::*'], [], SERVICE_PERMISSIONS)).to.deep.equal({
      _tag: 'NotAuthorized',
      permission: 'Cryptography::*',
    });
    expect(checkGrant(actor, ['*'], [], SERVICE_PERMISSIONS)).to.deep.equal({ _tag: 'NotAuthorized', permission: '*' });
  });

  it('lets an actor keep what the target already holds while changing the rest', () => {
    const actor = holder(['Cryptography::Encrypt'], ['*']);
    expect(
      checkGrant(actor, ['Tokens::Read', 'Cryptography::Encrypt'], ['Tokens::Read'], SERVICE_PERMISSIONS),
    ).to.equal(undefined);
  });

  it('refuses unknown names before anything else, and the operator may grant anything known', () => {
    expect(checkGrant(OPERATOR, ['Nope::*'], [], SERVICE_PERMISSIONS)).to.deep.include({ _tag: 'InvalidInput' });
    expect(checkGrant(OPERATOR, ['*', 'Users::Permissions'], [], SERVICE_PERMISSIONS)).to.equal(undefined);
  });
});

describe('domain: acting only on users one outranks', () => {
  it('needs every permission the target holds, a wildcard only through the same or a wider one', () => {
    const target = aUser({ permissions: ['Cryptography::*', 'Phone::Details'] });
    expect(checkOutranks(holder(['*'], ['Cryptography::*', 'Phone::Details']), target)).to.equal(undefined);
    expect(
      checkOutranks(holder(['Cryptography::Encrypt', 'Cryptography::Decrypt', 'Phone::Details'], ['*']), target),
    ).to.deep.equal({
      _tag: 'NotAuthorized',
      permission: 'Cryptography::*',
    });
    expect(checkOutranks(holder(['*'], ['Cryptography::*']), target)).to.deep.equal({
      _tag: 'NotAuthorized',
      permission: 'Phone::Details',
    });
    expect(checkOutranks(holder([], []), aUser({ permissions: [] }))).to.equal(undefined);
  });

  it('counts only what a lent token’s issuer still holds, and lets the operator act on anyone', () => {
    const target = aUser({ permissions: ['*'] });
    const owner = aUser({ permissions: ['*'] });
    const issuer = aUser({ permissions: ['Users::Delete'] });
    const lent = actorFor({ user: owner, token: aToken(owner.id, { scopes: ['*'], issuedBy: issuer.id }), issuer });
    expect(checkOutranks(lent, target)).to.deep.equal({ _tag: 'NotAuthorized', permission: '*' });
    expect(checkOutranks(OPERATOR, target)).to.equal(undefined);
  });
});

describe('domain: naming the user acted on', () => {
  const outage = { _tag: 'UserUpdateFailed' } as const;

  it('asks a caller with no user of its own to name one, by the uid field as the caller calls it', async () => {
    const users = new MemoryUserStore();
    expect(
      expectLeftTag(await targetUser(users, OPERATOR, { self: true }, 'Users::Read', outage), 'MissingInput'),
    ).to.deep.equal({ _tag: 'MissingInput', fields: ['uid'] });
    expect(
      expectLeftTag(
        await targetUser(users, OPERATOR, { self: true, fieldNames: { uid: 'x-uid' } }, 'Users::Read', outage),
        'MissingInput',
      ),
    ).to.deep.equal({ _tag: 'MissingInput', fields: ['x-uid'] });
  });
});

describe('domain: usernames from names', () => {
  it('lower-cases, drops accents and punctuation, and joins with a dot', () => {
    expect(usernameFromName('Zoë', "O'Brien")).to.equal('zoe.obrien');
    expect(usernameFromName('Ada', undefined)).to.equal('ada');
    expect(usernameFromName('李', '雷')).to.equal('user');
    expect(usernameFromName('A'.repeat(40), 'B')).to.have.length.at.most(28);
  });
});

describe('domain: token usage meter', () => {
  it('writes counted uses in one batch and keeps them when the store fails', async () => {
    const tokens = new MemoryTokenStore();
    const user = aUser();
    const record = aToken(user.id);
    await tokens.insert(record);
    let failing = true;
    const flaky: TokenStore = Object.assign(Object.create(tokens) as TokenStore, {
      recordUsage: async (usages: Parameters<TokenStore['recordUsage']>[0]) => {
        if (failing) throw new Error('store down');
        return tokens.recordUsage(usages);
      },
    });
    const meter = new TokenUsageMeter(flaky);
    meter.record(record.id, 1_000);
    meter.record(record.id, 2_000);
    let error: unknown;
    await meter.flush().catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect(meter.unwritten(record.id)).to.deep.equal({ uses: 2, lastUsedAt: 2_000 });
    meter.record(record.id, 3_000);
    failing = false;
    await meter.flush();
    expect(meter.unwritten(record.id)).to.equal(undefined);
    expect(await tokens.findById(record.id)).to.include({ uses: 3, lastUsedAt: 3_000 });
  });
});
