import { expect } from 'chai';
import { covers, grantedBy, isGrantablePermission, knownPermissions } from '../../src/domain/permissions.js';

describe('domain: permissions', () => {
  it('an exact name covers only itself', () => {
    expect(covers('Cryptography::Encrypt', 'Cryptography::Encrypt')).to.equal(true);
    expect(covers('Cryptography::Encrypt', 'Cryptography::Decrypt')).to.equal(false);
  });

  it('a family wildcard covers the family and its own wildcard, nothing wider', () => {
    expect(covers('Cryptography::*', 'Cryptography::Decrypt')).to.equal(true);
    expect(covers('Cryptography::*', 'Cryptography::*')).to.equal(true);
    expect(covers('Cryptography::*', '*')).to.equal(false);
    expect(covers('Cryptography::*', 'Game::Network.Map')).to.equal(false);
    expect(covers('Crypto::*', 'Cryptography::Encrypt')).to.equal(false);
  });

  it('holding one permission does not cover its family wildcard', () => {
    expect(covers('Cryptography::Encrypt', 'Cryptography::*')).to.equal(false);
  });

  it('* covers everything', () => {
    for (const p of [...knownPermissions, 'Cryptography::*', '*']) expect(covers('*', p)).to.equal(true);
  });

  it('grantedBy needs one covering pattern among those held', () => {
    expect(grantedBy([], 'Cryptography::Encrypt')).to.equal(false);
    expect(grantedBy(['Game::*', 'Cryptography::Encrypt'], 'Cryptography::Encrypt')).to.equal(true);
  });

  it('only known names, known family wildcards and * can be held', () => {
    expect(isGrantablePermission('Cryptography::Encrypt')).to.equal(true);
    expect(isGrantablePermission('Cryptography::*')).to.equal(true);
    expect(isGrantablePermission('*')).to.equal(true);
    for (const bad of ['Cryptograpy::*', 'Cryptography::Encrypts', '', '::*', 'Cryptography', '**']) {
      expect(isGrantablePermission(bad), bad).to.equal(false);
    }
  });
});
