/**
 * §5.3 Disconnect hook authenticity, with §4.1 (the hook's query) and §6 (when it is sent): the user disconnects the
 * integration through the control API and the kit's own listener (capability `hook`) receives the GET. Exclusive:
 * a disconnect also disconnects the account's chat channels (§3.2), which must not happen under other rules' feet.
 */
import {
  defineSpec, disconnectAndReceive, fail, type HookCheck, hookHasAllParameters, hookIsGet, hookParameterEquals, hookSignatureValid, Precondition, rule, type RuleContext,
} from './kit.js';

const HOOK = ['control', 'hook'] as const;

/** Disconnects, then judges the hook; `required` says whether a missing hook fails this rule or is another rule's failure. */
function judgeHook(t: RuleContext, checks: (accountId: number) => readonly HookCheck[], required: boolean) {
  return async () => {
    const { hook, accountId } = await disconnectAndReceive(t);
    if (!hook) {
      if (required) return t.outcome([fail('hook received', 'expected a GET to the disconnect hook URL after the user disconnected the integration, observed none within the window (docs/verdicts.md)')]);
      throw new Precondition('no disconnect hook arrived (hook.disconnect.parameters judges that)');
    }
    return t.outcome(checks(accountId).map((c) => c(hook)));
  };
}

export default defineSpec({
  section: '5.3',
  title: 'Disconnect hook',
  level: 'must',
  rules: [
    rule(
      { id: 'hook.disconnect.parameters', section: '6', requires: [...HOOK], exclusive: true,
        title: 'Disconnecting the integration sends a GET to the hook URL with account_id, client_id, client_uuid and signature',
        reading: '§6 and §4.1: a GET with account_id and client_id, the authenticity parameters signature and client_uuid (§5.3: all required). account_id must name the disconnected account.',
        covers: ['6/Disconnect hook', '2.1/Disconnect hook URL'] },
      (t) => judgeHook(t, (accountId) => [hookIsGet, hookHasAllParameters, hookParameterEquals('account_id', String(accountId), 'the disconnected account')], true)(),
    ),
    rule(
      { id: 'hook.disconnect.signature', requires: [...HOOK], exclusive: true,
        title: 'The hook signature is hex HMAC-SHA256 of client_uuid|account_id under the secret key',
        reading: '§5.3. Hex digits compared case-insensitively.', covers: ['6/Disconnect hook'] },
      (t) => judgeHook(t, () => [hookSignatureValid(t.credentials.clientSecret)], false)(),
    ),
    rule(
      { id: 'hook.disconnect.client-uuid', requires: [...HOOK], exclusive: true,
        title: 'The hook client_uuid equals the integration ID',
        reading: '§5.3: the receiver checks that client_uuid equals its own integration ID.', covers: ['6/Disconnect hook', '2.1/Integration ID'] },
      (t) => judgeHook(t, () => [hookParameterEquals('client_uuid', t.credentials.clientId, 'the integration ID')], false)(),
    ),
  ],
});
