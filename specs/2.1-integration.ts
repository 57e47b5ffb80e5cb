/**
 * §2.1 Integration: what of its settings the protocol shows. The secret key can be regenerated, after which the old
 * one must stop working (§2.1, §7 other cases 3, §5.1.3). The name, icon and permissions on the access-granting page
 * and the disconnect hook URL are checked with §4.1 and §5.3.
 */
import { codeGrant, defineSpec, exchange, freshCode, regenerateSecret, restoreSecret, scenarioRule, status, step } from './kit.js';

interface Secrets {
  readonly original: string;
  readonly fresh: string;
}

export default defineSpec({
  section: '2.1',
  title: 'Integration',
  level: 'must',
  rules: [
    scenarioRule<Secrets>(
      { id: 'oauth.secret.regenerated', requires: [], needs: ['fresh-code', 'operator'], exclusive: true,
        title: 'After the secret key is regenerated, the old secret is refused at the exchange and the new one works',
        reading: '§2.1: "after regeneration every configuration that holds the old key must be updated", i.e. the old key stops working. Refused with 400 (another 4xx non_strict). The rule puts the original secret back through the control API afterwards; without one the operator regenerates the key and pastes the new one, and the old one cannot be put back.',
        covers: ['2.1/Secret key', '4.1/Exchange code or refresh token/client_secret'] },
      {
        setup: async (t) => ({ original: t.credentials.clientSecret, fresh: await regenerateSecret(t) }),
        steps: [
          step('old secret', async (t) => exchange(t, codeGrant(t.target, await freshCode(t))), [status(400)]),
          step('new secret', async (t, s) => exchange(t, { ...codeGrant(t.target, await freshCode(t)), client_secret: s.fresh }), [status(200)]),
        ],
        teardown: async (t, s) => { await restoreSecret(t, s.original); },
      },
    ),
  ],
});
