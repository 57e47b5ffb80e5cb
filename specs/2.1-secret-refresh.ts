/**
 * §2.1 Integration, the secret key on the refresh grant: after regeneration the old key stops working for every
 * exchange that carries it, the refresh exchange as well as the code exchange (oauth.secret.regenerated).
 */
import { defineSpec, exchange, obtainTokens, refreshGrant, refreshTokens, regenerateSecret, restoreSecret, scenarioRule, status, step, type TokenPair } from './kit.js';

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
        reading: '§2.1: after regeneration the old key must be replaced everywhere, so it authenticates nothing; §5.1.3 makes the secret optional on refresh, but one that is sent is checked (RFC 6749 §6). 400; another 4xx non_strict. The original secret is put back afterwards through the control API; without one the operator regenerates the key and pastes the new one.' },
      {
        setup: async (t) => {
          const pair = await obtainTokens(t);
          const original = t.credentials.clientSecret;
          return { pair, original, fresh: await regenerateSecret(t) };
        },
        teardown: async (t, f) => { await restoreSecret(t, f.original); },
        steps: [
          step<Regenerated>('old secret', (t, f) => refreshTokens(t, f.pair.refresh_token), [status(400)]),
          step<Regenerated>('new secret', (t, f) => exchange(t, { ...refreshGrant(t.target, f.pair.refresh_token), client_secret: f.fresh }), [status(200)]),
        ],
      },
    ),
  ],
});
