/**
 * §4.3 Chat interface: Reaction.
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
  chatRule, chatSession, chatSweepRule, clientError, type Conversation, conversationWith, defineGroup, eachStep, equals, exchangeRule, hasLength, type HttpResponse, jsonContentType, noBody, recorded, refusalChecks, scenarioRule, status, statusObserved, step, sweepRule, uniqueId, valueField, valueFields,
} from '../kit.js';
import { type RouteMessage, routeMessage, sendReaction, REPEAT_ANSWER } from '../fixtures/chat.js';
import {
  type BrokenReaction, brokenReactions, type ClientMessage, clientMessage, REACT, react, reactionVariants, type ReactTarget, reactTarget, truth, type TwoChats,
} from './support.js';

export default defineGroup({
  heading: 'Reaction',
  rules: [
    // ---- reactions
    scenarioRule<ReactTarget>(
      { id: 'chat.react.accepted', title: 'react and unreact answer 200, naming the message by msgid or by id and the chat by conversation_id or conversation_ref_id',
        reading: 'Either id of each pair suffices (§4.3 Reaction); docs/field-notes.md: 200 with no body. The manager reaction is sent when MANAGER_USER_ID is set.', covers: ['conversation_id', 'conversation_ref_id', 'id', 'msgid', 'user[id]', 'user[ref_id]', 'type', 'emoji'].map(REACT) },
      {
        setup: reactTarget,
        steps: [eachStep({ items: (_t, f) => reactionVariants(f), label: (v) => v.what, observe: (_t, f, v) => f.s.react(v.body), expect: () => [status(200), noBody] })],
      },
    ),
    sweepRule<BrokenReaction, HttpResponse, ClientMessage>(
      { id: 'chat.react.invalid', title: 'A reaction without any message id, without any conversation id, without user.id or with another type is refused with 400',
        reading: 'Each id pair is "optional if the other is given": both missing and accepted fails (required-member); a type outside react/unreact accepted fails (enumeration); user[id] and type are unmarked: missing and accepted is non_strict (unmarked-member).',
        covers: ['conversation_id', 'conversation_ref_id', 'id', 'msgid', 'user[id]', 'type'].map(REACT) },
      {
        setup: clientMessage,
        named: (_t, f) => brokenReactions(f),
        cases: (_t, f) => fc.constantFrom(...brokenReactions(f)),
        send: (_t, c, f) => f.s.react(c.body),
        expect: (_t, c) => refusalChecks(c.reading),
        label: (c) => c.what,
      },
    ),
    exchangeRule<HttpResponse, ClientMessage>(
      { id: 'chat.react.unknown-message', title: 'A reaction to a message that does not exist answers 404', covers: [REACT('msgid'), '4.3/Reaction'] },
      {
        setup: clientMessage,
        send: (t, f) => f.s.react({ conversation_id: f.conv, msgid: `no-such-${t.runId}`, user: { id: f.client.id }, type: 'react', emoji: '👍' }),
        expect: [status(404), jsonContentType],
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
        reading: '§4.3 reaction table: emoji is optional, for either type. A react names its reaction, so a react without emoji refused with 400 is non_strict (C59); an unreact without emoji of a reaction the user made (with emoji, just before) refused fails; it does not follow the react without emoji, which may have been refused (R2-C18).',
        covers: ['4.3/Reaction/emoji', '4.3/Reaction/type'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        named: ['react', 'unreact'],
        send: async (c, type) => {
          const base = { conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: c.client.id } };
          // An unreact removes a reaction that exists: one made with emoji first, whatever the react without emoji got.
          if (type === 'unreact') await c.s.react({ ...base, type: 'react', emoji: '👍' });
          return c.s.react({ ...base, type });
        },
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
        reading: '§4.3 reaction: type react or unreact, on the message named (the first of two, not the latest of its chat). The reaction is the user\'s (user.id, integration side) with the emoji sent. Read through the control API.',
        covers: ['4.3/Reaction/type', '4.3/Reaction/emoji', '4.3/Reaction/user[id]'] },
      {
        setup: (t) => conversationWith(t, 2),
        steps: [
          step('react', (_t, c) => react(c, 'react'), [status(200)]),
          truth('after react', (_t, c) => [valueFields('reacted', { reactions: hasLength(1), 'reactions.0.user_id': equals(c.client.id), 'reactions.0.emoji': equals('👍') })]),
          step('unreact', (_t, c) => react(c, 'unreact'), [status(200)]),
          truth('after unreact', [valueField('reactions', hasLength(0), 'unreacted')]),
        ],
      },
    ),
    scenarioRule<RouteMessage>(
      { id: 'chat.repeated.reaction',
        title: 'The same reaction twice, and unreact twice, answer without a 5xx; a reaction afterwards is accepted',
        reading: '§4.3 reaction: 200 for a message that exists. The same react again is a valid request (200). An unreact that finds no reaction left changes nothing the spec describes: its answer is recorded, a refusal as much as a 200 (REPEAT_ANSWER, R2-C18). A 5xx fails.' },
      {
        setup: routeMessage,
        steps: [
          step<RouteMessage>('react', (_t, x) => sendReaction(x, 'react'), [status(200)]),
          step<RouteMessage>('the same react again', (_t, x) => sendReaction(x, 'react'), [status(200)]),
          step<RouteMessage>('unreact', (_t, x) => sendReaction(x, 'unreact'), [status(200)]),
          step<RouteMessage>('unreact again', (_t, x) => sendReaction(x, 'unreact'), [REPEAT_ANSWER]),
          step<RouteMessage>('react afterwards', (_t, x) => sendReaction(x, 'react'), [status(200)]),
        ],
      },
    ),
  ],
});
