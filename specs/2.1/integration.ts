/**
 * §2.1 Integration.
 *
 * §2.1 Integration: what of its settings the protocol shows. The secret key can be regenerated, after which the old
 * one must stop working (§2.1, §7 other cases 3, §5.1.3). The name, icon and permissions on the access-granting page
 * and the disconnect hook URL are checked with §4.1 and §5.3.
 *
 * §2.1 Integration, the secret key on the refresh grant: after regeneration the old key stops working for every
 * exchange that carries it, the refresh exchange as well as the code exchange (oauth.secret.regenerated).
 *
 * §2.1 Integration, the secret key and the disconnect hook: after regeneration the hook is signed with the new key
 * (§5.3 signs it "keyed with the integration secret key"), and the old key, which every configuration had to replace,
 * no longer verifies it. The hook receiver and the signature check are those of specs/5.3/disconnect-hook.ts.
 */
import {
  codeGrant, defineGroup, disconnectAndReceiveOwn, exchange, freshCode, hookArrived, hookSignatureNotUnder, hookSignatureValid, obtainTokens, type ReceivedHook, refreshGrant, refreshTokens, regenerateSecret, restoreSecret, scenarioRule, status, step, tokensOf,
  tokensIssued,
} from '../kit.js';
import { type Secrets, type RegeneratedRefresh, type RegeneratedHook } from './support.js';

export default defineGroup({
  heading: 'Integration',
  rules: [
    scenarioRule<Secrets>(
      { id: 'oauth.secret.regenerated', exclusive: true,
        title: 'After the secret key is regenerated, the old secret is refused at the exchange and the new one works',
        reading: '§2.1: "after regeneration every configuration that holds the old key must be updated", i.e. the old key stops working. Refused with 400 (another 4xx non_strict). The rule puts the original secret back through the control API afterwards; without one the operator regenerates the key and pastes the new one, and the old one cannot be put back.',
        covers: ['2.1/Secret key', '4.1/Exchange code or refresh token/client_secret'] },
      {
        setup: async (t) => ({ original: t.credentials.clientSecret, fresh: await regenerateSecret(t) }),
        steps: [
          step('old secret', async (t) => exchange(t, codeGrant(t.target, await freshCode(t))), [status(400)]),
          step('new secret', async (t, s) => exchange(t, { ...codeGrant(t.target, await freshCode(t)), client_secret: s.fresh }), tokensIssued),
        ],
        teardown: async (t, s) => { await restoreSecret(t, s.original); },
      },
    ),
    scenarioRule<RegeneratedRefresh>(
      { id: 'oauth.secret.regenerated-refresh', exclusive: true,
        title: 'After the secret key is regenerated, a refresh exchange carrying the old secret is refused and one carrying the new secret works',
        reading: '§2.1: after regeneration the old key must be replaced everywhere, so it authenticates nothing; §5.1.3 makes the secret optional on refresh, but one that is sent is checked (RFC 6749 §6). 400; another 4xx non_strict. The new secret must refresh a token issued after the regeneration; whether tokens issued before it survive the spec does not say, so the new secret on the earlier token is recorded (K42). The original secret is put back afterwards through the control API; without one the operator regenerates the key and pastes the new one.' },
      {
        setup: async (t) => {
          const pair = await obtainTokens(t);
          const original = t.credentials.clientSecret;
          return { pair, original, fresh: await regenerateSecret(t) };
        },
        teardown: async (t, f) => { await restoreSecret(t, f.original); },
        steps: [
          step<RegeneratedRefresh>('old secret', (t, f) => refreshTokens(t, f.pair.refresh_token), [status(400)]),
          step<RegeneratedRefresh>('new secret, a token issued after the regeneration', async (t, f) => {
            const after = tokensOf(await exchange(t, { ...codeGrant(t.target, await freshCode(t)), client_secret: f.fresh }), 'the code exchange with the new secret');
            return exchange(t, { ...refreshGrant(t.target, after.refresh_token), client_secret: f.fresh });
          }, tokensIssued),
          step<RegeneratedRefresh>('new secret, the token issued before', (t, f) => exchange(t, { ...refreshGrant(t.target, f.pair.refresh_token), client_secret: f.fresh }), [status(200, { refused: 'informational' })]),
        ],
      },
    ),
    scenarioRule<RegeneratedHook>(
      { id: 'oauth.secret.regenerated-hook', requires: ['control', 'hook'], needs: ['operator'], exclusive: true,
        title: 'After the secret key is regenerated, the disconnect hook is signed with the new key and no longer verifies under the old one',
        reading: '§2.1: after regeneration every configuration that holds the old key must be updated, so the receiver of §5.3 checks the hook with the new key; a hook still signed with the old one would be refused by every up-to-date receiver. The key is regenerated through the control API (POST /_control/secret; without one the operator regenerates it and pastes the new one), the integration disconnected in a side account, and the original key put back afterwards. Exclusive: the key is target-wide.',
        covers: ['2.1/Secret key', '6/Disconnect hook'] },
      {
        setup: async (t) => {
          const original = t.credentials.clientSecret;
          return { original, fresh: await regenerateSecret(t), hook: undefined };
        },
        teardown: async (t, f) => { await restoreSecret(t, f.original); },
        steps: [
          step<RegeneratedHook, RegeneratedHook>('', async (t, f) => {
            f.hook = (await disconnectAndReceiveOwn(t)).hook;
            return f;
          }, [hookArrived]),
          step<RegeneratedHook, ReceivedHook>('new secret', async (_t, f) => f.hook!, (_t, f) => [hookSignatureValid(f.fresh)]),
          step<RegeneratedHook, ReceivedHook>('', async (_t, f) => f.hook!, (_t, f) => [hookSignatureNotUnder(f.original, 'the old secret key')]),
        ],
      },
    ),
  ],
});
