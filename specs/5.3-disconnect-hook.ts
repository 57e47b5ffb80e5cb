/**
 * §5.3 Disconnect hook authenticity, with §4.1 (the hook's query) and §6 (when it is sent): the user disconnects the
 * integration through the control API and the kit's own receiver (capability `hook`) waits for the GET, up to the hook
 * window (docs/verdicts.md). Exclusive: a disconnect also disconnects the account's chat channels (§3.2), which must
 * not happen under other rules' feet.
 */
import {
  defineSpec, disconnectAndReceive, exchangeRule, hookArrived, hookHasAllParameters, hookIsGet, hookParameterEquals, hookParameterRecorded, hookSignatureValid, type ReceivedHook, receivedHook, scenarioRule, step,
} from './kit.js';

const HOOK = ['control', 'hook'] as const;

interface Disconnect {
  readonly hook: ReceivedHook | undefined;
  readonly accountId: number;
}

export default defineSpec({
  section: '5.3',
  title: 'Disconnect hook',
  level: 'must',
  rules: [
    scenarioRule<Disconnect>(
      { id: 'hook.disconnect.parameters', section: '6', requires: [...HOOK], exclusive: true,
        title: 'Disconnecting the integration sends a GET to the hook URL with account_id, client_id, client_uuid and signature',
        reading: '§6 and §4.1: a GET with account_id and client_id, the authenticity parameters signature and client_uuid (§5.3: all required). account_id must name the disconnected account. client_id must be present; which id it carries the spec does not say (the integration is identified by client_uuid, §5.3), so its value is recorded (K32).',
        covers: ['6/Disconnect hook', '2.1/Disconnect hook URL'] },
      {
        setup: (t) => disconnectAndReceive(t),
        steps: [
          step('', async (_t, d) => d, [hookArrived]),
          step('', async (_t, d) => d.hook!, (t, d) => [hookIsGet, hookHasAllParameters, hookParameterEquals('account_id', String(d.accountId), 'the disconnected account'), hookParameterRecorded('client_id', t.credentials.clientId, 'the integration ID')]),
        ],
      },
    ),
    exchangeRule<ReceivedHook>(
      { id: 'hook.disconnect.signature', requires: [...HOOK], exclusive: true,
        title: 'The hook signature is hex HMAC-SHA256 of client_uuid|account_id under the secret key',
        reading: '§5.3: the hexadecimal HMAC-SHA256, compared by the receiver as text. The right HMAC in upper-case hex is non_strict (§5.2 calls hex lower-case; K17).', covers: ['6/Disconnect hook'] },
      { send: (t) => receivedHook(t), expect: (t) => [hookSignatureValid(t.credentials.clientSecret)] },
    ),
    exchangeRule<ReceivedHook>(
      { id: 'hook.disconnect.client-uuid', requires: [...HOOK], exclusive: true,
        title: 'The hook client_uuid equals the integration ID',
        reading: '§5.3: the receiver checks that client_uuid equals its own integration ID.', covers: ['6/Disconnect hook', '2.1/Integration ID'] },
      { send: (t) => receivedHook(t), expect: (t) => [hookParameterEquals('client_uuid', t.credentials.clientId, 'the integration ID')] },
    ),
  ],
});
