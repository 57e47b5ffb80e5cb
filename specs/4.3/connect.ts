/**
 * §4.3 Chat interface: Connect channel.
 *
 * §4.3 connect and reaction, sent and checked field by field: connect answers the request fields it was sent (title,
 * hook_api_version, is_time_window_disabled) and, without is_time_window_disabled, its default false; a reaction whose
 * conversation and message belong to different chats reaches no message.
 *
 * §4.3 under concurrency, beyond chat creation and distinct messages (create-chat.ts, history.ts):
 * parallel connects of one channel for one account, one msgid sent again and again at once, and parallel edits of one
 * message. Each race sends RACERS requests at once through the kit's client and needs nothing but the chat channel,
 * so it runs on a staging account.
 */
import {
  applyCase, caseReading, chatPaths, chatSession, ChatSession, chatSweepRule, connectAnswer, connectVersionNamed, connectsAtOnce, defaultOrAbsent, defineGroup, describeCase, eachAnsweredOrBusy, echoes, exchangeRule, type FieldCase, firstAccepted, heldOnce, type HistoryItem, type HttpResponse, jsonContentType, newMessageBody, oneValueAmongAccepted, postToScope, RACERS, refusalChecks, scenarioRule, spareChannel, status, step, stringAt, whenAccepted,
} from '../kit.js';
import { CONNECT_CASES, connectCaseArb, type Connects, fullConnectBody } from './support.js';
import { CONNECT } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Connect channel',
  defaults: { requires: [] },
  rules: [
    // ---- connect and disconnect
    exchangeRule(
      { id: 'chat.connect.answer', title: 'Connect answers 200 with the request fields plus a string scope_id',
        reading: 'docs/field-notes.md: scope_id is `<channel_id>_<account_id>`; any non-empty string passes.',
        covers: [CONNECT('account_id'), CONNECT('hook_api_version'), '2.4/account_id', '2.4/scope_id', '2.4/hook_api_version', '4.3/Connect channel'] },
      { send: async (t) => (await chatSession(t)).connect(), expect: async (t) => { const s = await chatSession(t); return [status(200), connectVersionNamed(s.hookApiVersion), jsonContentType, connectAnswer(s.channel.accountId)]; } },
    ),
    scenarioRule<ChatSession>(
      { id: 'chat.connect.optional-omitted', title: 'Connect without title and is_time_window_disabled succeeds; with account_id alone it succeeds and answers hook_api_version v1',
        reading: '§4.3: title and is_time_window_disabled are optional and "may be omitted": refused fails. hook_api_version is not marked optional but has a default (v1): connect without it refused with 400 is non_strict, and an answer without it is non_strict (C2 of the review).',
        covers: [CONNECT('title'), CONNECT('is_time_window_disabled'), '2.4/title', '2.4/is_time_window_disabled'] },
      {
        setup: (t) => chatSession(t),
        steps: [
          step('without title and is_time_window_disabled', (_t, s) => s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody() }),
            (_t, s) => [status(200), connectAnswer(s.channel.accountId)]),
          step('account_id alone', (_t, s) => s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: { account_id: s.channel.accountId } }),
            (_t, s) => [status(200, { also: [400] }), whenAccepted(connectAnswer(s.channel.accountId)), whenAccepted(defaultOrAbsent('hook_api_version', 'v1'))]),
        ],
      },
    ),
    chatSweepRule<FieldCase>(
      { id: 'chat.connect.invalid', title: 'Connect without account_id, or with a field of the wrong type or an unknown hook_api_version, is refused with 400',
        reading: 'Optional fields may be omitted, but when given they have the stated type; hook_api_version is v1 or v2 (§2.4). Only account_id is removed; the others are given wrong values. account_id missing or a hook_api_version outside v1, v2 accepted fails; a value of another JSON type coerced or ignored and accepted is non_strict (wrong-type, C31 of the review).',
        covers: [CONNECT('account_id'), CONNECT('hook_api_version'), CONNECT('title'), CONNECT('is_time_window_disabled')] },
      {
        named: CONNECT_CASES,
        cases: connectCaseArb,
        send: (s, c) => s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: applyCase(fullConnectBody(s), c) }),
        expect: (c) => refusalChecks(caseReading(c)),
        label: describeCase,
      },
    ),
    exchangeRule(
      { id: 'chat.connect.unknown-channel', title: 'Connect to a channel that does not exist answers 404', covers: ['4.3/Connect channel'] },
      { send: async (t) => { const s = await chatSession(t); return s.send({ method: 'POST', path: chatPaths.connect(`no-such-channel-${t.runId}`), json: { account_id: s.channel.accountId } }); }, expect: [status(404), jsonContentType] },
    ),
    exchangeRule<HttpResponse, { readonly sent: Record<string, unknown> }>(
      { id: 'chat.connect.echoes-request', requires: ['write'], needs: ['second-channel'],
        title: 'Connect answers the request fields as sent: account_id, title, hook_api_version, is_time_window_disabled true',
        reading: '§4.3: "Response 200: the request fields plus scope_id". Every field is sent with a value other than its default, on a channel of its own (so the configured channel keeps its settings): the control API\'s, with hook_api_version v2 (its channels hold both addresses), else CHANNEL_ID_2 with the version CHANNEL_HOOK_API_VERSION says the channels of the settings hold (v1, the default, then judges only that it is echoed).',
        covers: [CONNECT('account_id'), CONNECT('title'), CONNECT('hook_api_version'), CONNECT('is_time_window_disabled'), '2.4/title', '2.4/hook_api_version', '2.4/is_time_window_disabled'] },
      {
        setup: async (t) => ({ sent: { title: `Echo ${t.runId}`, hook_api_version: t.target.capabilities.includes('control') ? 'v2' : t.credentials.channelHookApiVersion ?? 'v1', is_time_window_disabled: true } }),
        send: async (t, f) => {
          const s = await spareChannel(t);
          return s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: s.connectBody(f.sent) });
        },
        expect: (_t, f) => [status(200), echoes(f.sent)],
      },
    ),
    scenarioRule<Connects>(
      { id: 'chat.concurrency.connect', level: 'should', requires: ['write'],
        title: `${RACERS} connects of the configured channel for one account at once each answer 200 with one and the same scope_id, under which a message is then accepted`,
        reading: '§2.4: scope_id identifies "the channel connection for one account", so connecting again gives that connection (chat.connection.lifecycle connects twice in sequence). A deployment whose workers reconnect at once must not split it in two. The spec states no concurrency; a robustness rule. Some of them refused with a 4xx (409, 429) while every 200 names the one scope_id is non_strict (C23 of the review).',
        covers: ['4.3/Connect channel', '2.4/scope_id'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, answers: [], message: s.payload(s.conversationId(), s.client()) };
        },
        steps: [
          step<Connects, readonly HttpResponse[]>(`${RACERS} connects at once`, async (_t, c) => (c.answers = await connectsAtOnce(c.s)), [eachAnsweredOrBusy(200), oneValueAmongAccepted('scope_id')]),
          step('a message under that scope_id', (_t, c) => postToScope(c.s, stringAt(firstAccepted(c.answers), ['scope_id'])!, newMessageBody(c.message)), [status(200)]),
          step<Connects, HistoryItem[]>('history', (_t, c) => c.s.allHistory(c.message.conversation_id, (items) => items.length >= 1), (_t, c) => [heldOnce(c.message.msgid)]),
        ],
      },
    ),
  ],
});
