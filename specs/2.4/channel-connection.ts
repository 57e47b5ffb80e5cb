/**
 * §2.4 Channel connection (scope).
 *
 * §2.4 hook_api_version: "The hook address for that version must be set in the channel settings". What connect does
 * for a version whose address is not set is not stated; it is recorded on a channel registered with a v1 hook address
 * only (through the control API, else V1_CHANNEL_ID of the settings).
 *
 * §2.4 channel connection: the defaults a connect without optional fields must take, checked against the channel's
 * registered name (the control API's, else CHANNEL_NAME of the settings).
 *
 * §2.4 is_time_window_disabled: "when the channel has a reply time window, true disables it for this account". A
 * channel of the rule's own gets a reply window through the control API and is connected to two accounts, with false
 * and with true; the client writes in both; a reply inside the window is accepted; once the window has passed on the
 * control clock, what the bot's reply gets in each is recorded: the spec shows neither the window nor how a reply
 * outside it is refused (C5 of the review). That true is accepted and echoed is judged by chat.connect.echoes-request.
 */
import {
  botReply, chatPaths, type ChatSession, chatSession, configuredChannelName, defaultOrAbsent, defineGroup, exchangeRule, type HttpResponse, jsonContentType, noScopeId, observedStatus, passReplyWindow, type ReplyWindowChannel, replyWindowChannel, resetClock, scenarioRule, status, statusObserved, step, uniqueId, v1OnlyChannel,
} from '../kit.js';
import { CONNECT } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Channel connection (scope)',
  rules: [
    exchangeRule<HttpResponse, ChatSession>(
      { id: 'chat.connect.hook-address-unset', level: 'info', requires: ['write'], needs: ['v1-only-channel'],
        title: 'What connect with hook_api_version v2 gets on a channel whose settings hold a v1 hook address only',
        reading: '§2.4: the address for the chosen version "must be set in the channel settings"; whether connect refuses a version without one, or accepts it and sends no hooks, is not stated. Reported, not judged.',
        covers: ['2.4/hook_api_version', '4.3/Connect channel/hook_api_version'] },
      {
        setup: v1OnlyChannel,
        send: (_t, own) => own.connect({ hook_api_version: 'v2' }),
        expect: [statusObserved('connect v2 without a v2 hook address', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
    exchangeRule<HttpResponse, string>(
      { id: 'chat.connect.title-default', needs: ['channel-name'],
        title: 'Connect without title answers the channel\'s registered name as title',
        reading: '§2.4: title defaults to the channel name. The name is read through the control API, else CHANNEL_NAME of the settings (the chat interface never shows it); the connect answer echoes the connection, so a title it gives must be that name; no title in the answer is non_strict (answer-member, C3 of the review). The probe gives hook_api_version (the configured channel\'s, CHANNEL_HOOK_API_VERSION, as every connect of the kit), so that only title is left out.',
        covers: ['2.4/title'] },
      {
        setup: configuredChannelName,
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody() });
        },
        expect: (_t, name) => [status(200), defaultOrAbsent('title', name)],
      },
    ),
    scenarioRule<ReplyWindowChannel>(
      { id: 'chat.connect.time-window-disabled', level: 'info', requires: ['write', 'control'], needs: ['clock', 'second-account'], exclusive: true,
        title: 'What a reply gets once the channel\'s reply window has passed, where is_time_window_disabled is false and where it is true',
        reading: '§2.4: true "disables" the channel\'s reply time window for the account; the spec shows neither the window nor how a reply outside it is refused, so the late replies are recorded, not judged (open-point, C5 of the review). The window (an hour) is set on a channel registered through the control API and passed on its clock (exclusive; put back after); the replies come from the channel\'s bot.',
        covers: ['2.4/is_time_window_disabled', '4.3/Connect channel/is_time_window_disabled'] },
      {
        setup: replyWindowChannel,
        teardown: (t) => resetClock(t),
        steps: [
          step('reply inside the window', (_t, f) => botReply(f, 'enforced'), [status(200)]),
          step('the window passes', (t, f) => passReplyWindow(t, f), []),
          step('late reply, is_time_window_disabled false', (_t, f) => botReply(f, 'enforced'), [observedStatus('late reply, window held')]),
          step('late reply, is_time_window_disabled true', (_t, f) => botReply(f, 'disabled'), [observedStatus('late reply, window disabled')]),
        ],
      },
    ),
    exchangeRule(
      { id: 'chat.connect.unknown-account', level: 'should', title: 'Connect for an account_id the chat interface does not know is refused (4xx) and hands out no scope_id',
        reading: '§2.4: account_id is the account id in the chat interface; a made-up one names no account, so no connection can be made. "400 when data is invalid" (§4.3): 400 passes, another 4xx (404) is non_strict (C30 of the review).',
        covers: ['2.4/account_id', '4.3/Connect channel/account_id'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody({}, uniqueId(t, 'no-account')) });
        },
        expect: [status(400), noScopeId, jsonContentType],
      },
    ),
    exchangeRule(
      { id: 'chat.connect.time-window-default', title: 'Connect without is_time_window_disabled answers it false, or leaves it out',
        reading: '§2.4 and §4.3: is_time_window_disabled is optional, default false; the answer carries the request fields "in the shape of 2.4", so false passes and no value is non_strict (a listed member missing, C4 of the review).',
        covers: [CONNECT('is_time_window_disabled'), '2.4/is_time_window_disabled'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody() });
        },
        expect: [status(200), defaultOrAbsent('is_time_window_disabled', false)],
      },
    ),
  ],
});
