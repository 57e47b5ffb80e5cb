import { describe, expect, it } from 'vitest';
import { MASKED_SECRET, Masker, maskSecret, secretTag } from '../../src/secrets/mask.js';
import { maskAuthorization } from '../../src/runner/recorder.js';
import { maskerFor } from '../../src/runner/execute.js';
import type { Credentials, TargetConfig } from '../../src/model/target.js';

describe('masking', () => {
  it('keeps the first four characters and an ellipsis, then a tag that tells two secrets apart', () => {
    expect(maskSecret('abcdefghijkl')).toMatch(/^abcd…[0-9a-f]{6}$/);
    expect(maskSecret('abcdefghijkl')).toBe(maskSecret('abcdefghijkl')); // the same secret, the same tag
    // Two JWTs start alike: their masks do not.
    const a = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.sig-one';
    const b = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIyIn0.sig-two';
    expect(maskSecret(a).startsWith('eyJh…')).toBe(true);
    expect(maskSecret(a)).not.toBe(maskSecret(b));
    const m = new Masker();
    m.add(a);
    m.add(b);
    expect(m.mask(`${a} then ${b}`)).toBe(`${maskSecret(a)} then ${maskSecret(b)}`);
  });

  it('MASKED_SECRET finds a masked secret whole, tag and all (compare normalizes by it)', () => {
    const masked = maskSecret('eyJhbGciOiJSUzI1NiJ9.payload.sig');
    expect(`"access_token":"${masked}"`.replace(MASKED_SECRET, '{secret}')).toBe('"access_token":"{secret}"');
  });

  it('draws the tag from a key of the process, not from the secret alone: no dictionary finds a secret by its tag', async () => {
    const { createHash } = await import('node:crypto');
    const secret = 'password1234';
    expect(secretTag(secret)).not.toBe(createHash('sha256').update(secret).digest('hex').slice(0, 6));
    expect(secretTag(secret)).not.toBe(createHash('md5').update(secret).digest('hex').slice(0, 6));
  });

  it('masks every occurrence of every known secret, longest first', () => {
    const m = new Masker();
    m.add('secret-value-1234');
    m.add('secret-value-1234-and-more');
    expect(m.mask('a secret-value-1234-and-more b secret-value-1234 c')).toBe(`a ${maskSecret('secret-value-1234-and-more')} b ${maskSecret('secret-value-1234')} c`);
  });

  it('learns secret fields from nested JSON and masks deep values', () => {
    const m = new Masker();
    m.learnFrom({ data: { access_token: 'eyJhbGciOiJSUzI1NiJ9.x.y', other: 'visible' }, list: [{ refresh_token: 'def50200aaaaaaaa' }] });
    expect(m.maskDeep({ a: ['eyJhbGciOiJSUzI1NiJ9.x.y', 'def50200aaaaaaaa'], b: 'visible' })).toEqual({ a: [maskSecret('eyJhbGciOiJSUzI1NiJ9.x.y'), maskSecret('def50200aaaaaaaa')], b: 'visible' });
  });

  it('ignores short values that would mask ordinary text', () => {
    const m = new Masker();
    m.add('abc');
    expect(m.size).toBe(0);
    expect(m.mask('abc')).toBe('abc');
  });

  it('masks a secret clipped before it was masked, and nothing that only starts like one', () => {
    const m = new Masker();
    const token = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${'a1B2c3D4'.repeat(30)}.signature`;
    m.add(token);
    const detail = `expected a token of this account, observed "${token.slice(0, 100)}…" (clipped)`;
    expect(m.mask(detail)).toBe(`expected a token of this account, observed "${maskSecret(token)}…" (clipped)`);
    expect(m.mask(token.slice(0, 40))).toBe(maskSecret(token));
    // Another JWT shares the header but goes on past where a clip would end: not this secret, left as it is.
    const other = `eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.${'zzzzzzzz'.repeat(3)}.sig`;
    expect(m.mask(`other ${other} here`)).toBe(`other ${other} here`);
    for (let at = 12; at < token.length; at += 1) expect(m.mask(`[${token.slice(0, at)}]`)).toBe(`[${maskSecret(token)}]`);
  });

  it('escapes regular-expression characters in secrets', () => {
    const m = new Masker();
    m.add('a.b*c+d?e(f)');
    expect(m.mask('xa.b*c+d?e(f)x axbxcxdxexfx')).toBe(`x${maskSecret('a.b*c+d?e(f)')}x axbxcxdxexfx`);
  });

  it('masks the credential of an Authorization header even when unknown', () => {
    expect(maskAuthorization('Bearer eyJhbGciOiJSUzI1NiJ9.payload.sig')).toBe(`Bearer ${maskSecret('eyJhbGciOiJSUzI1NiJ9.payload.sig')}`);
    expect(maskAuthorization('Bearer eyJhbGciOiJSUzI1NiJ9.payload.sig')).toMatch(/^Bearer eyJh…[0-9a-f]{6}$/);
  });
});

describe('the masker of a run', () => {
  it('knows every secret setting before a rule runs, and nothing that is public', () => {
    const credentials: Credentials = {
      clientId: 'client-id-public-0001', redirectUri: 'https://example.test/cb', adminLogin: 'admin@example.test',
      clientSecret: 'SECRET-client-secret', authCode: 'SECRET-auth-code', refreshToken: 'SECRET-refresh-token',
      longLivedToken: 'SECRET-long-lived', channelSecret: 'SECRET-channel-1', channelSecret2: 'SECRET-channel-2',
      adminPassword: 'SECRET-admin-password',
    };
    const target: TargetConfig = { kind: 'remote', baseUrl: 'https://b.test', authUrl: 'https://a.test', chatUrl: 'https://c.test', credentials, capabilities: [] };
    const text = Object.values(credentials).join(' ');
    const masked = maskerFor(target).mask(text);
    expect(masked).not.toContain('SECRET-');
    for (const visible of [credentials.clientId, credentials.redirectUri, credentials.adminLogin!]) expect(masked).toContain(visible);
  });
});

describe('masking, exhaustively', () => {
  it('masks exactly what a naive replace-all would, for generated texts and secrets', async () => {
    const fc = (await import('fast-check')).default;
    const alphabet = fc.constantFrom(...'abAB01.-_"{}: é=&/');
    const word = fc.string({ unit: alphabet, minLength: 8, maxLength: 14 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(word, fc.string({ unit: alphabet, maxLength: 6 })), { maxLength: 12 }), (secrets, parts) => {
        const m = new Masker();
        for (const s of secrets) m.add(s);
        const text = parts.join('');
        const masked = m.mask(text);
        // no secret survives, and text without secrets (or a clipped prefix of one, 8 characters or more) is left alone
        for (const s of secrets) expect(masked.includes(s)).toBe(false);
        if (!secrets.some((s) => text.includes(s.slice(0, 8)))) expect(masked).toBe(text);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('finds a secret in a text exactly when the text contains it (or its upper or lower case)', async () => {
    const fc = (await import('fast-check')).default;
    const alphabet = fc.constantFrom(...'abAB01.-_"{}: é=&/');
    const word = fc.string({ unit: alphabet, minLength: 8, maxLength: 14 });
    fc.assert(
      // A part that is a number stands for a known secret (in its own, upper or lower case), so that texts hold some.
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(word, fc.string({ unit: alphabet, maxLength: 6 }), fc.nat(11)), { maxLength: 12 }), (secrets, parts) => {
        const m = new Masker();
        for (const s of secrets) m.add(s);
        const pick = (n: number) => { const s = secrets[n % secrets.length]!; return n % 3 === 0 ? s : n % 3 === 1 ? s.toUpperCase() : s.toLowerCase(); };
        const text = parts.map((p) => (typeof p === 'number' ? pick(p) : p)).join('');
        const variants = secrets.flatMap((s) => [s, s.toUpperCase(), s.toLowerCase()]);
        expect(m.holdsSecret(text)).toBe(variants.some((s) => text.includes(s)));
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('says a text changes when masked exactly when mask changes it (secrets inside, and a run that ends inside one)', async () => {
    const fc = (await import('fast-check')).default;
    const alphabet = fc.constantFrom(...'abAB01.-_"{}: é=&/');
    const word = fc.string({ unit: alphabet, minLength: 8, maxLength: 14 });
    fc.assert(
      // A number stands for a known secret, whole or clipped to its first n characters, so that texts hold both.
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(word, fc.string({ unit: alphabet, maxLength: 6 }), fc.nat(40)), { maxLength: 12 }), (secrets, parts) => {
        const m = new Masker();
        for (const s of secrets) m.add(s);
        const pick = (n: number) => { const s = secrets[n % secrets.length]!; return n % 2 === 0 ? s : s.slice(0, 8 + (n % 5)); };
        const text = parts.map((p) => (typeof p === 'number' ? pick(p) : p)).join('');
        expect(m.changes(text)).toBe(m.mask(text) !== text);
      }),
      { numRuns: 1000, seed: 7 },
    );
  });
});
