/**
 * §4.3 connect and reaction, sent and checked field by field: connect answers the request fields it was sent (title,
 * hook_api_version, is_time_window_disabled) and, without is_time_window_disabled, its default false; a reaction whose
 * conversation and message belong to different chats reaches no message.
 */
import {
  chatPaths, chatSession, type ChatSession, clientError, connectBody, defaultOrAbsent, defineSpec, echoes, exchangeRule, type HttpResponse, spareChannel, status, recorded,
} from './kit.js';

const CONNECT = (f: string) => `4.3/Connect channel/${f}`;
const REACT = (f: string) => `4.3/Reaction/${f}`;

/** Two conversations of one client, a message in the second. */
interface TwoChats {
  readonly s: ChatSession;
  readonly convA: string;
  readonly clientId: string;
  readonly msgidInB: string;
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: connect answer and reaction ids',
  level: 'must',
  rules: [
    exchangeRule<HttpResponse, { readonly sent: Record<string, unknown> }>(
      { id: 'chat.connect.echoes-request', requires: ['write'], needs: ['second-channel'],
        title: 'Connect answers the request fields as sent: account_id, title, hook_api_version v2, is_time_window_disabled true',
        reading: '§4.3: "Response 200: the request fields plus scope_id". Every field is sent with a value other than its default, on a channel of its own (so the configured channel keeps its settings): the control API\'s, else CHANNEL_ID_2.',
        covers: [CONNECT('account_id'), CONNECT('title'), CONNECT('hook_api_version'), CONNECT('is_time_window_disabled'), '2.4/title', '2.4/hook_api_version', '2.4/is_time_window_disabled'] },
      {
        setup: async (t) => ({ sent: { title: `Echo ${t.runId}`, hook_api_version: 'v2', is_time_window_disabled: true } }),
        send: async (t, f) => {
          const s = await spareChannel(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId, f.sent) });
        },
        expect: (_t, f) => [status(200), echoes(f.sent)],
      },
    ),
    exchangeRule(
      { id: 'chat.connect.time-window-default', section: '2.4', requires: [],
        title: 'Connect without is_time_window_disabled answers it false, or leaves it out',
        reading: '§2.4 and §4.3: is_time_window_disabled is optional, default false; the answer carries the request fields "in the shape of 2.4", so false passes and no value is non_strict (a listed member missing, C4 of the review).',
        covers: [CONNECT('is_time_window_disabled'), '2.4/is_time_window_disabled'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId) });
        },
        expect: [status(200), defaultOrAbsent('is_time_window_disabled', false)],
      },
    ),
    exchangeRule<HttpResponse, TwoChats>(
      { id: 'chat.react.ids-disagree', level: 'info', requires: ['write'],
        title: 'What a reaction naming one conversation and a message of another gets',
        reading: 'open-point (C61): conversation_id and msgid name the chat and the message; what a reaction whose two ids name different chats gets is not stated. The answer is recorded (a 4xx is the natural reading).',
        covers: [REACT('conversation_id'), REACT('msgid')] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          const client = s.client();
          const convA = s.conversationId();
          await s.mustSend(s.payload(convA, client));
          const { msgid } = await s.mustSend(s.payload(s.conversationId(), client));
          return { s, convA, clientId: client.id, msgidInB: msgid };
        },
        send: (_t, f) => f.s.react({ conversation_id: f.convA, msgid: f.msgidInB, user: { id: f.clientId }, type: 'react', emoji: '👍' }),
        expect: recorded([clientError()]),
      },
    ),
  ],
});
