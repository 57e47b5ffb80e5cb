/**
 * The checks of the hardened page rules, on the plain views the page steps take: a forged Allow, a foreign
 * redirect_uri, an unknown mode, and the accounts offered.
 */
import { describe, expect, it } from 'vitest';
import {
  accountsNotOffered, accountsOffered, noCodeGranted, originNotContacted, redirectWindowObserved,
} from '../../src/checks/page.js';

const hit = (query: string, window: 'main' | 'popup' = 'main') => ({ window, params: new URLSearchParams(query) });

describe('noCodeGranted', () => {
  const check = noCodeGranted('a forged Allow');
  it('fails a redirect with a code, passes an error page, a redirect without a code, and an untried variant', () => {
    expect(check({ tokenFields: ['form_token'], answered: 200, hit: hit('code=abc') })).toMatchObject({ verdict: 'failed' });
    expect(check({ tokenFields: ['form_token'], answered: 200, hit: hit('code=abc') }).detail).toContain('with a code');
    expect(check({ tokenFields: ['form_token'], answered: 403 })).toMatchObject({ verdict: 'passed' });
    expect(check({ tokenFields: [], answered: 303, hit: hit('error=access_denied') }).detail).toContain('error=access_denied');
    expect(check({ tokenFields: [] })).toMatchObject({ verdict: 'passed', detail: expect.stringContaining('not tried') });
  });
});

describe('originNotContacted', () => {
  const check = originNotContacted('https://attacker.example');
  it('fails any request to the watched origin, and says where the browser went otherwise', () => {
    expect(check({ foreign: ['https://attacker.example/cb?code=x'] })).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('/cb') });
    expect(check({ foreign: ['https://attacker.example/cb'], hit: hit('code=x') }).verdict).toBe('failed');
    expect(check({ foreign: [], hit: hit('code=x') }).detail).toContain('registered Redirect URI');
    expect(check({ foreign: [], refused: 'Error' }).detail).toContain('refused');
    expect(check({ foreign: [] }).detail).toContain('no navigation');
  });
});

describe('redirectWindowObserved', () => {
  it('records the window, a refusal, or nothing, never judging', () => {
    const check = redirectWindowObserved('mode=other');
    expect(check({ hit: hit('code=x', 'popup') })).toMatchObject({ verdict: 'informational', detail: 'mode=other: the opened window went to the Redirect URI with a code' });
    expect(check({ hit: hit('error=x', 'main') }).detail).toBe('mode=other: the main window went to the Redirect URI');
    expect(check({ refused: 'Error' }).verdict).toBe('informational');
    expect(check({}).detail).toContain('no navigation');
  });
});

describe('accounts offered', () => {
  const offered = [{ id: 11, label: 'Main (main)' }, { id: 22, label: 'Acme (acme.amocrm.ru)' }];
  it('finds a member account offered by id, by domain or by sub-domain, and not by a word that merely contains it', () => {
    expect(accountsNotOffered(['33'], 'member account')({ offered }).verdict).toBe('passed');
    expect(accountsNotOffered(['22'], 'member account')({ offered }).verdict).toBe('failed');
    expect(accountsNotOffered(['acme.amocrm.ru'], 'member account')({ offered }).verdict).toBe('failed');
    expect(accountsNotOffered(['acme'], 'member account')({ offered }).verdict).toBe('failed');
    expect(accountsNotOffered(['main.amocrm.ru'], 'member account')({ offered: [offered[1]!] }).verdict).toBe('passed');
    expect(accountsNotOffered(['acm'], 'member account')({ offered }).verdict).toBe('passed');
  });
  it('requires every administrator account among the choices', () => {
    expect(accountsOffered([11, 22], 'admin accounts')({ offered }).verdict).toBe('passed');
    expect(accountsOffered([11, 44], 'admin accounts')({ offered })).toMatchObject({ verdict: 'failed', detail: expect.stringContaining('44') });
  });
});
