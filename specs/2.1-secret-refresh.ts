/**
 * §2.1 Integration, the secret key on the refresh grant: after regeneration the old key stops working for every
 * exchange that carries it, the refresh exchange as well as the code exchange (oauth.secret.regenerated).
 */
import { codeGrant, defineSpec, exchange, freshCode, obtainTokens, refreshGrant, refreshTokens, regenerateSecret, restoreSecret, scenarioRule, status, step, type TokenPair, tokensOf } from './kit.js';

interface Regenerated {
  readonly pair: TokenPair;
  readonly original: string;
  readonly fresh: string;
}

export default defineSpec({
  section: '2.1',
  title: 'Integration: the regenerated secret on the refresh grant',
  level: 'must',
  rules: [
    scenarioRule<Regenerated>(
      { id: 'oauth.secret.regenerated-refresh', requires: [], needs: ['fresh-code', 'operator'], exclusive: true,
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
          step<Regenerated>('old secret', (t, f) => refreshTokens(t, f.pair.refresh_token), [status(400)]),
          step<Regenerated>('new secret, a token issued after the regeneration', async (t, f) => {
            const after = tokensOf(await exchange(t, { ...codeGrant(t.target, await freshCode(t)), client_secret: f.fresh }), 'the code exchange with the new secret');
            return exchange(t, { ...refreshGrant(t.target, after.refresh_token), client_secret: f.fresh });
          }, [status(200)]),
          step<Regenerated>('new secret, the token issued before', (t, f) => exchange(t, { ...refreshGrant(t.target, f.pair.refresh_token), client_secret: f.fresh }), [status(200, { refused: 'informational' })]),
        ],
      },
    ),
  ],
});
