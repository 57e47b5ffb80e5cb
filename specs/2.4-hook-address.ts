/**
 * §2.4 hook_api_version: "The hook address for that version must be set in the channel settings". What connect does
 * for a version whose address is not set is not stated; it is recorded on a channel registered with a v1 hook address
 * only (through the control API, else V1_CHANNEL_ID of the settings).
 */
import { type ChatSession, defineSpec, exchangeRule, type HttpResponse, statusObserved, v1OnlyChannel } from './kit.js';

export default defineSpec({
  section: '2.4',
  title: 'Channel connection: hook address of the version',
  level: 'info',
  rules: [
    exchangeRule<HttpResponse, ChatSession>(
      { id: 'chat.connect.hook-address-unset', requires: ['write'], needs: ['v1-only-channel'],
        title: 'What connect with hook_api_version v2 gets on a channel whose settings hold a v1 hook address only',
        reading: '§2.4: the address for the chosen version "must be set in the channel settings"; whether connect refuses a version without one, or accepts it and sends no hooks, is not stated. Reported, not judged.',
        covers: ['2.4/hook_api_version', '4.3/Connect channel/hook_api_version'] },
      {
        setup: v1OnlyChannel,
        send: (_t, own) => own.connect({ hook_api_version: 'v2' }),
        expect: [statusObserved('connect v2 without a v2 hook address', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
  ],
});
