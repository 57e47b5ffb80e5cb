/**
 * §4.3 Chat interface: Create chat.
 *
 * §4.3 validation per route: the fields each chat endpoint's table requires (create chat's conversation_id and
 * source, reply_to.message, forwards.messages and the forwarded embedded messages, event_type), each sent broken and
 * refused with 400; the optional react emoji left out and accepted; and disconnect's answer, 200 with no body.
 */
import fc from 'fast-check';
import {
  chatSession, chatSweepRule, createdChat, createsAtOnce, defineGroup, describeExternalId, differentFrom, eachAnswer, equals, exchangeRule, EXTERNAL_ID_BOUNDARY, EXTERNAL_ID_OTHER_TYPES, type ExternalIdCase, field, firstAccepted, type HttpResponse, invalidExternalId, isNonEmptyString, jsonAt, jsonContentType, oneValueAmongAccepted, scenarioRule, status, step, validExternalId, valueIs,
} from '../kit.js';
import { type BrokenMember, BUSY, chatIdOf, type CreatedChat, createdChatFor, type CreationRace, creationRace, memberRefusalOf } from './support.js';
import { CREATE, externalIdAnswer } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Create chat',
  rules: [
    // ---- chats
    exchangeRule(
      { id: 'chat.create-chat.answer', title: 'Create chat answers 200 with a string id and the user (id, client_id = the integration-side id, name)',
        covers: [CREATE('conversation_id'), CREATE('user[id]'), CREATE('user[name]'), '4.3/Create chat'] },
      {
        send: async (t) => { const s = await chatSession(t); return s.createChat(s.conversationId(), { id: `client-${t.runId}-answer`, name: 'Answer' }); },
        expect: (t) => [status(200), jsonContentType, createdChat(`client-${t.runId}-answer`)],
      },
    ),
    scenarioRule<CreatedChat>(
      { id: 'chat.create-chat.idempotent', title: 'Creating a chat again for the same conversation_id returns the same chat id, whatever the user; a new conversation_id of the same user a new chat',
        reading: '§4.3: "if a chat already exists for conversation_id, its id is returned": the chat is keyed by conversation_id, so another user in the same conversation gets the same chat, and the same user in a new conversation gets another. The same user is answered with the same user.id, its chat-interface id.', covers: [CREATE('conversation_id')] },
      {
        setup: createdChatFor,
        steps: [
          // user.id is "the chat-interface id" of the user: the same user has it in every answer (it names the sender of
          // the user's messages, which new_message.sender_id may no longer be compared with, R2-C9).
          step('same conversation', (_t, f) => f.s.createChat(f.conv, f.user), (_t, f) => [status(200), field('id', equals(f.first), 'same chat id'), field('user.id', equals(f.firstUser), 'the same user\'s chat-interface id')]),
          step('another user', (_t, f) => f.s.createChat(f.conv, f.s.client()), (_t, f) => [status(200), field('id', equals(f.first), 'same chat for another user')]),
          step('a new conversation', (_t, f) => f.s.createChat(f.s.conversationId(), f.user), (_t, f) => [status(200), field('id', isNonEmptyString, 'new chat for a new conversation'), field('id', differentFrom(f.first, `the first chat id ${f.first}`), 'new chat for a new conversation')]),
        ],
      },
    ),
    scenarioRule<CreationRace>(
      { id: 'chat.create-chat.concurrent', title: '8 parallel creations of one conversation_id give one chat id',
        reading: 'Idempotency per conversation_id holds under concurrency: a client retrying on a timeout must not split a conversation in two. Every 200 carries one chat id; a 409 or 429 among the answers is non_strict (C33).', covers: [CREATE('conversation_id')] },
      {
        setup: creationRace,
        steps: [
          // Only the successful creations carry an id: a 409 or 429 among them is non_strict (C33), not a second chat.
          step<CreationRace, readonly HttpResponse[]>('', async (_t, f) => (f.answers = await createsAtOnce(f.s, f.conv, f.user, 8)), [
            eachAnswer(status(200, { also: BUSY })), oneValueAmongAccepted('id'),
          ]),
          step<CreationRace, string>('', (_t, f) => chatIdOf(f.s, f.conv, f.user), (_t, f) => [
            valueIs(equals(jsonAt(firstAccepted(f.answers), 'id')), 'stable afterwards', 'the chat id a later creation answered'),
          ]),
        ],
      },
    ),
    chatSweepRule<BrokenMember>(
      { id: 'chat.create-chat.conversation-id', title: 'Create chat without conversation_id, or with one that is not a non-empty string, is refused with 400 (accepting it is non_strict)',
        reading: 'The create-chat table leaves conversation_id (string) unmarked where user[avatar] and the others are marked optional: unmarked-member (missing or empty and accepted is non_strict); another JSON type accepted is non_strict (wrong-type).',
        covers: ['4.3/Create chat/conversation_id'] },
      {
        connect: true,
        named: [
          { what: 'missing', value: undefined, reading: 'unmarked-member' }, { what: 'a number (42)', value: 42, reading: 'wrong-type' }, { what: 'null', value: null, reading: 'wrong-type' },
          { what: 'an object', value: { id: 'x' }, reading: 'wrong-type' }, { what: 'an empty string', value: '', reading: 'unmarked-member' },
        ],
        send: (s, c) => s.postChats({ ...(c.value !== undefined && { conversation_id: c.value }), user: s.client() }),
        expect: memberRefusalOf,
        label: (c) => `conversation_id ${c.what}`,
      },
    ),
    chatSweepRule<ExternalIdCase>(
      { id: 'chat.create-chat.source', title: 'Create chat: source.external_id of up to 40 printable ASCII characters, an integer or a boolean is accepted; 41 characters or a non-printable character is refused',
        reading: 'The create-chat table points source[external_id] at §2.6 (and §8): the limits of a message\'s source hold for a chat\'s. Both sides of the boundary (40, 41) are always sent.',
        covers: ['4.3/Create chat/source[external_id]', '2.6/external_id', '8/Source external_id'] },
      {
        connect: true,
        named: [
          { variant: 'printable', value: EXTERNAL_ID_BOUNDARY.accepted },
          { variant: 'too-long', value: EXTERNAL_ID_BOUNDARY.refused },
          { variant: 'non-printable', value: 'tab\there', char: '\t' },
          { variant: 'integer', value: 42 },
          { variant: 'boolean', value: true },
          ...EXTERNAL_ID_OTHER_TYPES,
        ],
        cases: () => fc.oneof(validExternalId, invalidExternalId),
        send: (s, c) => s.createChat(s.conversationId(), s.client(), { source: { external_id: c.value } }),
        expect: externalIdAnswer,
        label: describeExternalId,
      },
    ),
  ],
});
