/**
 * The fault switches of what the control API drives in an account: deactivations, account-side chat replies and their
 * hooks (./lifecycle.ts, ./chat.ts), each read here with `faults.isOn('<name>')` (test/faults/areas.test.ts checks
 * it). ../faults.ts assembles every area's table. Grouped by the statement they break, in the spec's order.
 */
import { defineFaults } from '../switches.js';

export const CONTROL_FAULTS = defineFaults([
  // Deactivation in an account, driven through the control API (§4.1, §5.3, §6)
  { name: 'deactivation-keeps-tokens', description: 'Deactivating an installation does not revoke its tokens.',
    caughtBy: ['api.bearer.deactivated-installation'] },
  { name: 'deactivation-revokes-all-accounts', description: 'Deactivating the installation in one account revokes the integration\'s tokens in every account.',
    caughtBy: ['oauth.deactivation.one-account'] },
  // Account-side chat events: replies' outgoing-message hooks after a disconnect, per connection version (§3.2, §4.3, §9)
  { name: 'chat-hooks-after-disconnect', description: 'Outgoing-message hooks are still sent for a disconnected channel.',
    caughtBy: ['chat.connection.hooks-stop'] },
  { name: 'chat-hook-late-after-disconnect', description: 'A message from the account to a disconnected channel still sends its outgoing-message hook, 300 ms after the answer said none was sent.',
    caughtBy: ['chat.connection.integration-disconnect-hooks'] },
  { name: 'chat-hook-v2-payload-v1-shape', description: 'A v2 connection\'s outgoing-message hook carries the v1 payload (the hooks log still says v2).',
    caughtBy: ['chat.outgoing-hook.payload'] },
  { name: 'chat-hook-version-per-channel', description: 'An outgoing-message hook goes with the hook_api_version of the channel\'s latest connect, whichever account made it, not with its own connection\'s.',
    caughtBy: ['chat.outgoing-hook.version'] },
] as const);
