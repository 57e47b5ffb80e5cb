/**
 * Points of the chat interface (and of §7 errors) the spec leaves open, recorded by `info` rules and never judged:
 * typing for a conversation that does not exist, an outgoing message whose sender.ref_id names nobody, a react whose
 * user.ref_id names nobody, and the structure of one error body of each endpoint family.
 */
import {
  accountRequest, chatRule, chatSession, type Conversation, conversationWith, defineSpec, observedErrorBody, statusObserved, sweepRule, tokenRequest,
  uniqueId,
} from './kit.js';

type Family = 'token endpoint' | 'account API' | 'chat interface';

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: open points recorded',
  level: 'info',
  rules: [
    chatRule(
      { id: 'chat.typing.unknown-conversation', requires: ['write'],
        title: 'What typing for a conversation_id never used gets',
        reading: '§4.3 typing: "Response 204 (event accepted)"; what an unknown conversation gets is not stated. Reported, not judged.',
        covers: ['4.3/Typing indicator'] },
      {
        connect: true,
        send: (s) => s.typing({ conversation_id: uniqueId(s.t, 'never-used'), sender: { id: s.client().id } }),
        expect: [statusObserved('typing, unknown conversation', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
    chatRule<Conversation>(
      { id: 'chat.sender.ref-id-unknown', section: '2.5', requires: ['write'],
        title: 'What an outgoing message whose sender.ref_id names no account user and not the bot gets',
        reading: '§2.5: ref_id of a manager message is "id of the account user"; what a ref_id naming nobody gets is not stated. Reported, not judged.',
        covers: ['2.5/ref_id', '4.3/Send, edit or import a message/receiver'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        send: (c) => c.s.sendMessage(c.s.payload(c.conv, { id: uniqueId(c.s.t, 'nobody'), ref_id: uniqueId(c.s.t, 'no-user'), name: 'Nobody' }, { receiver: c.client, message: { type: 'text', text: 'from nobody' } })),
        expect: [statusObserved('unknown sender.ref_id', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
    chatRule<Conversation>(
      { id: 'chat.react.unknown-ref-id', requires: ['write'],
        title: 'What a react on behalf of a manager whose user.ref_id names no account user gets',
        reading: '§4.3 reaction: user[ref_id] is "required when reacting on behalf of a manager"; what one naming no account user gets is not stated. Reported, not judged.',
        covers: ['4.3/Reaction/user[ref_id]'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        send: (c) => c.s.react({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: uniqueId(c.s.t, 'manager'), ref_id: uniqueId(c.s.t, 'no-user') }, type: 'react', emoji: '👍' }),
        expect: [statusObserved('unknown user.ref_id', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
    sweepRule<Family>(
      { id: 'errors.body-structure', section: '7',
        title: 'The media type and keys of one error body of each endpoint family: token endpoint, account API, chat interface',
        reading: '§7: "Structure of the error body: not shown". One refusal each: a code grant without code, client_id or secret; the account API without a token; connect with account_id a number. Reported, not judged.',
      },
      {
        named: ['token endpoint', 'account API', 'chat interface'],
        send: async (t, family) => {
          if (family === 'token endpoint') return t.send(tokenRequest(t.target, { grant_type: 'authorization_code' }));
          if (family === 'account API') return t.send(accountRequest(t.target, undefined));
          return (await chatSession(t)).connect({ account_id: 42 });
        },
        expect: (_t, family) => [observedErrorBody(family)],
        label: (family) => family,
      },
    ),
  ],
});
