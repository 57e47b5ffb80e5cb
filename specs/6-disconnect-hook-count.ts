/**
 * §6 events: one disconnect, one hook.
 */
import { defineSpec, disconnectAndCount, exchangeRule, type HookCount, hookSentOnce } from './kit.js';

export default defineSpec({
  section: '6',
  title: 'Disconnect hook count',
  level: 'should',
  rules: [
    exchangeRule<HookCount>(
      { id: 'hook.disconnect.once', requires: ['control', 'hook'], exclusive: true,
        title: 'One disconnect sends exactly one hook for the disconnected account',
        reading: '§6: the hook is sent when the user disconnects the integration; a second delivery of one event (a retry after a success) would have the receiver act twice. After the first hook the kit watches the rest of the hook window (docs/verdicts.md) for another naming the same account. Hooks naming other accounts are not counted: an earlier rule\'s disconnect may still be in flight.' },
      { send: disconnectAndCount, expect: [hookSentOnce] },
    ),
  ],
});
