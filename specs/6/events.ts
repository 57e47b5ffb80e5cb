/**
 * §6 Events.
 *
 * §6 events: one disconnect, one hook.
 *
 * §6 Events, the outgoing-message hook: it goes to the hook address of the version the connection chose (§2.4
 * hook_api_version, §9 "chosen per connected channel"), and its payload, which the spec does not show, is recorded.
 * A manager writing from the account and the hooks sent exist only through the control API (docs/control-api.md).
 */
import {
  defineGroup, disconnectAndCount, disconnectAndReceive, exchangeRule, hookArrived, type HookCount, hookHasAllParameters, hookIsGet, hookParameterEquals, hookParameterRecorded, hookPayloadKeys, hookSentOnce, hooksOf, hookWentWithItsVersion, managerMessagesPerVersion, parameterPresent, platformOneOrTwo, reconnectedWithDefault, redirectQuery, scenarioRule, stateReturned, step, type TwoConnections,
} from '../kit.js';
import { type Disconnect, READING_SETUP } from './support.js';

export default defineGroup({
  heading: 'Events',
  rules: [
    exchangeRule<URLSearchParams>(
      { id: 'oauth.redirect.widget-hook', requires: ['control'], title: 'The widget installation hook carries the redirect parameters plus from_widget',
        reading: '§4.1 behaviour 5 and §6: "same parameters as the redirect, plus from_widget". The control API installs as from an uploaded widget archive and answers the hook it sends (the emulator cannot reach the Redirect URI\'s host).',
        covers: ['6/Widget installation hook'] },
      {
        send: (t) => redirectQuery(t, { widget: true, state: `widget-${t.runId}` }),
        expect: (t) => [parameterPresent('code'), parameterPresent('referer'), platformOneOrTwo, stateReturned(`widget-${t.runId}`), parameterPresent('from_widget')],
      },
    ),
    scenarioRule<Disconnect>(
      { id: 'hook.disconnect.parameters', exclusive: true,
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
    exchangeRule<HookCount>(
      { id: 'hook.disconnect.once', level: 'should', exclusive: true,
        title: 'One disconnect sends exactly one hook for the disconnected account',
        reading: '§6: the hook is sent when the user disconnects the integration; a second delivery of one event (a retry after a success) would have the receiver act twice. After the first hook the kit watches the rest of the hook window (docs/verdicts.md) for another naming the same account. Hooks naming other accounts are not counted: an earlier rule\'s disconnect may still be in flight.' },
      { send: disconnectAndCount, expect: [hookSentOnce] },
    ),
    scenarioRule<TwoConnections>(
      { id: 'chat.outgoing-hook.version', requires: ['write', 'control'], needs: ['second-account', 'counters'],
        title: 'A manager\'s message sends its outgoing-message hook with the hook_api_version of its own connection: v1 on the v1 connection, v2 on the v2 one, v1 once that one is connected again without the field',
        reading: `§6: the hook goes to the address for the chosen hook_api_version; §2.4 and §9: the version is chosen per connection (per account), v1 by default. ${READING_SETUP} Then the v2 connection is disconnected and connected again without hook_api_version (disconnecting first, as the spec does not say what a connect of a connected channel does to its version), and a manager writes there again: that hook goes with v1. A hook with another version, or none, fails.`,
        covers: ['6/Outgoing message hook', '2.4/hook_api_version'] },
      {
        setup: managerMessagesPerVersion,
        steps: [
          step('', (t, f) => hooksOf(t, f.v1, 'v1'), [hookWentWithItsVersion]),
          step('', (t, f) => hooksOf(t, f.v2, 'v2'), [hookWentWithItsVersion]),
          step('reconnected without hook_api_version', async (t, f) => hooksOf(t, await reconnectedWithDefault(f), 'v1'), [hookWentWithItsVersion]),
        ],
      },
    ),
    scenarioRule<TwoConnections>(
      { id: 'chat.outgoing-hook.payload', level: 'info', requires: ['write', 'control'], needs: ['second-account', 'counters'],
        title: 'What the payload of a v1 and of a v2 outgoing-message hook holds (its keys, two levels deep)',
        reading: `§6: "Payload of outgoing-message hooks (v1, v2): not shown", so the keys are recorded, not judged. ${READING_SETUP} The emulator's own shapes are in docs/control-api.md.`,
        covers: ['6/Outgoing message hook'] },
      {
        setup: managerMessagesPerVersion,
        steps: [
          step('', (t, f) => hooksOf(t, f.v1, 'v1'), [hookPayloadKeys]),
          step('', (t, f) => hooksOf(t, f.v2, 'v2'), [hookPayloadKeys]),
        ],
      },
    ),
  ],
});
