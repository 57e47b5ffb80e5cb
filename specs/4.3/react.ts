/**
 * §4.3 Chat interface: Reaction.
 *
 * §4.3 Chat interface endpoints: connect, disconnect, create chat, send / edit / import a message, comments, history,
 * typing and reactions, with the §7 codes (404 for an unknown channel or message, 204 for an empty history) and the
 * §8 limits (history limit 50, one forward, typing default 5000 ms). Every chat rule works in its own conversations.
 *
 * §4.3 connect and reaction, sent and checked field by field: connect answers the request fields it was sent (title,
 * hook_api_version, is_time_window_disabled) and, without is_time_window_disabled, its default false; a reaction whose
 * conversation and message belong to different chats reaches no message.
 *
 * §4.3 validation per route: the fields each chat endpoint's table requires (create chat's conversation_id and
 * source, reply_to.message, forwards.messages and the forwarded embedded messages, event_type), each sent broken and
 * refused with 400; the optional react emoji left out and accepted; and disconnect's answer, 200 with no body.
 *
 * Points of the chat interface (and of §7 errors) the spec leaves open, recorded by `info` rules and never judged:
 * typing for a conversation that does not exist, an outgoing message whose sender.ref_id names nobody, a react whose
 * user.ref_id names nobody, and the structure of one error body of each endpoint family.
 *
 * §4.3 delivery status and reactions, applied: what the account keeps about a message after each request, read
 * through the control API (GET /_control/chat/messages), not only the 200 the request answers.
 */
import fc from 'fast-check';
import {
  applyCase, chatRule, chatSession, chatSweepRule, clientError, type Conversation, conversationWith, defineGroup, equals, exchangeRule, type Finding, hasLength, type HttpResponse, jsonContentType, noBody, recorded, refusalChecks, rule, scenarioRule, status, statusObserved, step, sweepThenProperty, uniqueId, valueField, valueFields,
} from '../kit.js';
import { REACT, chatIdOf, type TwoChats, named, truth, react } from './support.js';

export default defineGroup({
  heading: 'Reaction',
  rules: [
    // ---- reactions
    rule(
      { id: 'chat.react.accepted', title: 'react and unreact answer 200, naming the message by msgid or by id and the chat by conversation_id or conversation_ref_id',
        reading: 'Either id of each pair suffices (§4.3 Reaction); docs/field-notes.md: 200 with no body. The manager reaction is sent when MANAGER_USER_ID is set.', covers: ['conversation_id', 'conversation_ref_id', 'id', 'msgid', 'user[id]', 'user[ref_id]', 'type', 'emoji'].map(REACT) },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const chatId = await chatIdOf(s, conv, client);
        const sent = await s.mustSend(s.payload(conv, client));
        const variants: [string, Record<string, unknown>][] = [
          ['msgid + conversation_id', { conversation_id: conv, msgid: sent.msgid, user: { id: client.id }, type: 'react', emoji: '👍' }],
          ['id + conversation_ref_id', { conversation_ref_id: chatId, id: sent.id, user: { id: client.id }, type: 'react', emoji: '🔥' }],
          ['unreact', { conversation_id: conv, msgid: sent.msgid, user: { id: client.id }, type: 'unreact' }],
          ...(s.channel.managerUserId ? [['on behalf of a manager (user.ref_id)', { conversation_id: conv, msgid: sent.msgid, user: { id: `manager-${s.channel.managerUserId}`, ref_id: s.channel.managerUserId }, type: 'react', emoji: '👌' }] as [string, Record<string, unknown>]] : []),
        ];
        const f: Finding[] = [];
        for (const [name, body] of variants) f.push(...t.check(await s.react(body), [status(200), noBody]).map((x) => ({ ...x, check: `${name}: ${x.check}` })));
        return t.outcome(f);
      },
    ),
    rule(
      { id: 'chat.react.invalid', title: 'A reaction without any message id, without any conversation id, without user.id or with another type is refused with 400',
        reading: 'Each id pair is "optional if the other is given": both missing and accepted fails (required-member); a type outside react/unreact accepted fails (enumeration); user[id] and type are unmarked: missing and accepted is non_strict (unmarked-member).',
        covers: ['conversation_id', 'conversation_ref_id', 'id', 'msgid', 'user[id]', 'type'].map(REACT) },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const sent = await s.mustSend(s.payload(conv, client));
        const valid = { conversation_id: conv, msgid: sent.msgid, user: { id: client.id }, type: 'react', emoji: '👍' };
        const named = [
          { what: 'no msgid nor id', body: applyCase(valid, { path: ['msgid'], breakage: 'missing' }), reading: 'required-member' as const },
          { what: 'no conversation_id nor conversation_ref_id', body: applyCase(valid, { path: ['conversation_id'], breakage: 'missing' }), reading: 'required-member' as const },
          { what: 'no user', body: applyCase(valid, { path: ['user'], breakage: 'missing' }), reading: 'unmarked-member' as const },
          { what: 'no user.id', body: applyCase(valid, { path: ['user', 'id'], breakage: 'missing' }), reading: 'unmarked-member' as const },
          { what: 'type "like"', body: { ...valid, type: 'like' }, reading: 'enumeration' as const },
          { what: 'no type', body: applyCase(valid, { path: ['type'], breakage: 'missing' }), reading: 'unmarked-member' as const },
        ];
        const arb = fc.constantFrom(...named);
        return sweepThenProperty(t, { named: named, cases: arb, check: async (c) => t.check(await s.react(c.body), refusalChecks(c.reading)).map((f) => ({ ...f, detail: `${c.what}: ${f.detail}` })) });
      },
    ),
    rule(
      { id: 'chat.react.unknown-message', title: 'A reaction to a message that does not exist answers 404', covers: [REACT('msgid'), '4.3/Reaction'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        await s.mustSend(s.payload(conv, client));
        return t.outcome(t.check(await s.react({ conversation_id: conv, msgid: `no-such-${t.runId}`, user: { id: client.id }, type: 'react', emoji: '👍' }), [status(404), jsonContentType]));
      },
    ),
    exchangeRule<HttpResponse, TwoChats>(
      { id: 'chat.react.ids-disagree', level: 'info', title: 'What a reaction naming one conversation and a message of another gets',
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
    chatSweepRule<'react' | 'unreact', Conversation>(
      { id: 'chat.react.without-emoji', title: 'A react and an unreact without emoji are accepted with 200',
        reading: '§4.3 reaction table: emoji is optional, for either type. A react names its reaction, so a react without emoji refused with 400 is non_strict (C59); an unreact without emoji refused fails.',
        covers: ['4.3/Reaction/emoji', '4.3/Reaction/type'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        named: ['react', 'unreact'],
        send: (c, type) => c.s.react({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: c.client.id }, type }),
        expect: (type) => [type === 'react' ? status(200, { also: [400] }) : status(200)],
        label: (type) => `${type} without emoji`,
      },
    ),
    chatRule<Conversation>(
      { id: 'chat.react.unknown-ref-id', level: 'info', title: 'What a react on behalf of a manager whose user.ref_id names no account user gets',
        reading: '§4.3 reaction: user[ref_id] is "required when reacting on behalf of a manager"; what one naming no account user gets is not stated. Reported, not judged.',
        covers: ['4.3/Reaction/user[ref_id]'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        send: (c) => c.s.react({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: uniqueId(c.s.t, 'manager'), ref_id: uniqueId(c.s.t, 'no-user') }, type: 'react', emoji: '👍' }),
        expect: [statusObserved('unknown user.ref_id', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.react.applied', requires: ['write', 'control'],
        title: 'react adds the user\'s reaction to the message; unreact removes it',
        reading: '§4.3 reaction: type react or unreact. The reaction is the user\'s (user.id, integration side) with the emoji sent. Read through the control API.',
        covers: ['4.3/Reaction/type', '4.3/Reaction/emoji', '4.3/Reaction/user[id]'] },
      {
        setup: (t) => conversationWith(t, 1),
        steps: [
          step('react', (_t, c) => react(c, 'react'), [status(200)]),
          truth('after react', (_t, c) => [valueFields('reacted', { reactions: hasLength(1), 'reactions.0.user_id': equals(c.client.id), 'reactions.0.emoji': equals('👍') })]),
          step('unreact', (_t, c) => react(c, 'unreact'), [status(200)]),
          truth('after unreact', [valueField('reactions', hasLength(0), 'unreacted')]),
        ],
      },
    ),
  ],
});
