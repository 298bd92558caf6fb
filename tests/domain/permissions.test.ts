import { expect } from 'chai';
import { covers, grantedBy, PermissionCatalogue } from '../../src/domain/permissions.js';
import { SERVICE_PERMISSIONS } from '../support/permissions.js';

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
    for (const p of [...SERVICE_PERMISSIONS.known, 'Cryptography::*', '*']) expect(covers('*', p)).to.equal(true);
  });

  it('grantedBy needs one covering pattern among those held', () => {
    expect(grantedBy([], 'Cryptography::Encrypt')).to.equal(false);
    expect(grantedBy(['Game::*', 'Cryptography::Encrypt'], 'Cryptography::Encrypt')).to.equal(true);
  });

  it('only known names, known family wildcards and * can be held', () => {
    expect(SERVICE_PERMISSIONS.isGrantable('Cryptography::Encrypt')).to.equal(true);
    expect(SERVICE_PERMISSIONS.isGrantable('Cryptography::*')).to.equal(true);
    expect(SERVICE_PERMISSIONS.isGrantable('*')).to.equal(true);
    for (const bad of ['Cryptograpy::*', 'Cryptography::Encrypts', '', '::*', 'Cryptography', '**']) {
      expect(SERVICE_PERMISSIONS.isGrantable(bad), bad).to.equal(false);
    }
  });

  it('a catalogue knows the permissions it was made of, and their families, and nothing else', () => {
    const catalogue = new PermissionCatalogue(['Greeting::Say', 'Greeting::Wave', 'System::Metrics']);
    expect(catalogue.families).to.deep.equal(['Greeting', 'System']);
    expect(catalogue.isGrantable('Greeting::Say')).to.equal(true);
    expect(catalogue.isGrantable('Greeting::*')).to.equal(true);
    expect(catalogue.isGrantable('Cryptography::Encrypt')).to.equal(false);
    expect(catalogue.isGrantable('Cryptography::*')).to.equal(false);
  });

  it('the service’s catalogue holds every family’s permissions, in the families’ order, and the platform’s last', () => {
    expect(SERVICE_PERMISSIONS.families).to.deep.equal([
      'Cryptography',
      'Password',
      'Users',
      'Tokens',
      'Audit',
      'Game',
      'Phone',
      'Location',
      'Weather',
      'Dictionary',
      'Facts',
      'Quotes',
      'Barcode',
      'Whois',
      'Mail',
      'Webhooks',
      'System',
    ]);
  });
});
