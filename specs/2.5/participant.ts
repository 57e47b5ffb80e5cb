/**
 * §2.5 Participant object.
 *
 * The chat objects of §2.5–§2.11 (participant, source, message, shared_post, delivery_status, post, embedded message)
 * and the message event of §4.3: every required field omitted or of the wrong type is refused with 400, every optional
 * one may be omitted, and each limit is checked on both sides of its boundary. Cases come from
 * generators/chat-requests.ts: a deterministic sweep of every named case, then random ones.
 *
 * §2.5 participant profile: "when a new unsorted lead is created, they are added to the contact data". A client whose
 * first message carries profile phone and email creates the unsorted lead; its contact, read through the control
 * API (GET /_control/chat/unsorted), carries both.
 */
import {
  absentWhenNotGiven, avatarGiven, chatRule, chatSession, ChatSession, contactCarries, type Conversation, conversationWith, createdChat, defineGroup, emptyAvatar, equals, field, type ParticipantBody, phoneShownAs, type ProfiledClient, profiledClient, scenarioRule, sendFirstMessage, status, statusObserved, step, uniqueId, unsortedLeadOf,
} from '../kit.js';
import { fullParticipant } from './support.js';
import { messageEvent, requiredRule, optionalRule, P } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'Participant object (`sender`, `receiver`, and `user` in chat creation)',
  rules: [
    // §2.5 participant
    requiredRule(
      { id: 'chat.participant.required', title: 'A participant (create chat user, message sender) without id or name, or with either of another type, is refused with 400',
        reading: '§2.5: id and name required; §4.3 create chat: the user object is required.', covers: ['2.5/id', '2.5/name', '4.3/Create chat/user[id]', '4.3/Create chat/user[name]'] },
      (s) => ({ conversation_id: s.conversationId(), user: s.client() }),
      [{ path: P('user'), type: 'object' }, { path: P('user', 'id'), type: 'string' }, { path: P('user', 'name'), type: 'string' }],
    ),
    requiredRule(
      { id: 'chat.sender.required', title: 'A message whose sender lacks id or name, or has either of another type, is refused with 400',
        covers: ['2.5/id', '2.5/name', '4.3/Send, edit or import a message/sender'] },
      (s) => messageEvent(s),
      [{ path: P('payload', 'sender'), type: 'object', unmarked: true }, { path: P('payload', 'sender', 'id'), type: 'string' }, { path: P('payload', 'sender', 'name'), type: 'string' }],
    ),
    optionalRule(
      { id: 'chat.participant.optional', title: 'avatar, profile (phone, email) and profile_link of a participant may each be omitted',
        covers: ['2.5/avatar', '2.5/profile', '2.5/profile_link', '4.3/Create chat/user[avatar]', '4.3/Create chat/user[profile][phone]', '4.3/Create chat/user[profile][email]', '4.3/Create chat/user[profile_link]'] },
      (s) => ({ conversation_id: s.conversationId(), user: fullParticipant(s) }),
      [P('user', 'avatar'), P('user', 'profile'), P('user', 'profile', 'phone'), P('user', 'profile', 'email'), P('user', 'profile_link')],
    ),
    scenarioRule<{ s: ChatSession; full: ReturnType<typeof fullParticipant>; bare: ParticipantBody }>(
      { id: 'chat.participant.answer', title: 'The created chat\'s user carries avatar, phone and email when given, and leaves phone and email out when not',
        reading: '§2.5: in responses, phone and email are "both absent when not given"; avatar is empty if not given, and shows the one given (the URL sent or a re-hosted copy) when given. answer-member: null or "" for phone and email, and null or no member for avatar, are non_strict; a given avatar answered "" is non_strict too (its download may come after the answer, R2-C5); a phone given back in another spelling of the same number (digits only) is non_strict (C6–C8 of the review).', covers: ['2.5/profile', '2.5/avatar'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, full: fullParticipant(s), bare: s.client('Bare') };
        },
        steps: [
          step('', (_t, { s, full }) => s.createChat(s.conversationId(), full), (_t, { full }) => [
            status(200), createdChat(full.id), phoneShownAs('user.phone', full.profile.phone), field('user.email', equals(full.profile.email)), avatarGiven('user.avatar'),
          ]),
          step('', (_t, { s, bare }) => s.createChat(s.conversationId(), bare), [
            absentWhenNotGiven('user.phone', 'user.email'), emptyAvatar('user.avatar'),
          ]),
        ],
      },
    ),
    scenarioRule<ProfiledClient>(
      { id: 'chat.participant.profile-to-contact', needs: ['ground-truth'],
        title: 'A first incoming message whose sender has profile phone and email creates an unsorted lead whose contact carries both',
        reading: '§2.5 profile: phone and email "are added to the contact data" when a new unsorted lead is created (§2.6: by the first incoming message). The lead and its contact are read through the control API. A phone with other separators and an email in another case are the same values.',
        covers: ['2.5/profile', '4.3/Send, edit or import a message/sender'],
        creates: 'one chat with one message from a client with a profile' },
      {
        setup: profiledClient,
        steps: [
          step('first message', (_t, f) => sendFirstMessage(f), [status(200)]),
          step('unsorted lead', (_t, f) => unsortedLeadOf(f.s, f.conv), (_t, f) => [contactCarries(f.profile)]),
        ],
      },
    ),
    chatRule<Conversation>(
      { id: 'chat.sender.ref-id-unknown', level: 'info', title: 'What an outgoing message whose sender.ref_id names no account user and not the bot gets',
        reading: '§2.5: ref_id of a manager message is "id of the account user"; what a ref_id naming nobody gets is not stated. Reported, not judged.',
        covers: ['2.5/ref_id', '4.3/Send, edit or import a message/receiver'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        send: (c) => c.s.sendMessage(c.s.payload(c.conv, { id: uniqueId(c.s.t, 'nobody'), ref_id: uniqueId(c.s.t, 'no-user'), name: 'Nobody' }, { receiver: c.client, message: { type: 'text', text: 'from nobody' } })),
        expect: [statusObserved('unknown sender.ref_id', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
  ],
});
