/**
 * §2.1 Integration, the secret key and the disconnect hook: after regeneration the hook is signed with the new key
 * (§5.3 signs it "keyed with the integration secret key"), and the old key, which every configuration had to replace,
 * no longer verifies it. The hook receiver and the signature check are those of specs/5.3-disconnect-hook.ts.
 */
import {
  defineSpec, disconnectAndReceiveOwn, hookArrived, hookSignatureNotUnder, hookSignatureValid, type ReceivedHook, regenerateSecret, restoreSecret, scenarioRule, step,
} from './kit.js';

interface Regenerated {
  readonly original: string;
  readonly fresh: string;
  hook: ReceivedHook | undefined;
}

export default defineSpec({
  section: '2.1',
  title: 'Integration: the regenerated secret signs the disconnect hook',
  level: 'must',
  rules: [
    scenarioRule<Regenerated>(
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
          step<Regenerated, Regenerated>('', async (t, f) => {
            f.hook = (await disconnectAndReceiveOwn(t)).hook;
            return f;
          }, [hookArrived]),
          step<Regenerated, ReceivedHook>('new secret', async (_t, f) => f.hook!, (_t, f) => [hookSignatureValid(f.fresh)]),
          step<Regenerated, ReceivedHook>('', async (_t, f) => f.hook!, (_t, f) => [hookSignatureNotUnder(f.original, 'the old secret key')]),
        ],
      },
    ),
  ],
});
