/**
 * §6 Events, the outgoing-message hook: it goes to the hook address of the version the connection chose (§2.4
 * hook_api_version, §9 "chosen per connected channel"), and its payload, which the spec does not show, is recorded.
 * A manager writing from the account and the hooks sent exist only through the control API (docs/control-api.md).
 */
import { defineSpec, hookPayloadKeys, hooksOf, hookWentWithItsVersion, managerMessagesPerVersion, reconnectedWithDefault, scenarioRule, step, type TwoConnections } from './kit.js';

const READING_SETUP = 'A channel of the rule\'s own is connected to the configured account with hook_api_version v1 and to a second account with v2, both before either message; a manager then writes in a chat of each (POST /_control/chat/account-message) and the hooks are read from GET /_control/chat/hooks, waited for up to the hook window.';

export default defineSpec({
  section: '6',
  title: 'Outgoing-message hooks per hook version',
  level: 'must',
  rules: [
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
