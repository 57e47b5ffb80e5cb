/**
 * §5.3 Disconnect hook authenticity.
 *
 * §5.3 Disconnect hook authenticity, with §4.1 (the hook's query) and §6 (when it is sent): the user disconnects the
 * integration through the control API and the kit's own receiver (capability `hook`) waits for the GET, up to the hook
 * window (docs/verdicts.md). Exclusive: a disconnect also disconnects the account's chat channels (§3.2), which must
 * not happen under other rules' feet.
 */
import { defineGroup, exchangeRule, hookParameterEquals, hookSignatureValid, type ReceivedHook, receivedHook } from '../kit.js';

export default defineGroup({
  heading: 'Disconnect hook authenticity',
  rules: [
    exchangeRule<ReceivedHook>(
      { id: 'hook.disconnect.signature', exclusive: true,
        title: 'The hook signature is hex HMAC-SHA256 of client_uuid|account_id under the secret key',
        reading: '§5.3: the hexadecimal HMAC-SHA256, compared by the receiver as text. The right HMAC in upper-case hex is non_strict (§5.2 calls hex lower-case; K17).', covers: ['6/Disconnect hook'] },
      { send: (t) => receivedHook(t), expect: (t) => [hookSignatureValid(t.credentials.clientSecret)] },
    ),
    exchangeRule<ReceivedHook>(
      { id: 'hook.disconnect.client-uuid', exclusive: true,
        title: 'The hook client_uuid equals the integration ID',
        reading: '§5.3: the receiver checks that client_uuid equals its own integration ID.', covers: ['6/Disconnect hook', '2.1/Integration ID'] },
      { send: (t) => receivedHook(t), expect: (t) => [hookParameterEquals('client_uuid', t.credentials.clientId, 'the integration ID')] },
    ),
  ],
});
