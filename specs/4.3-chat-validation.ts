/**
 * §4.3 validation per route: the fields each chat endpoint's table requires (create chat's conversation_id and
 * source, reply_to.message, forwards.messages and the forwarded embedded messages, event_type), each sent broken and
 * refused with 400; the optional react emoji left out and accepted; and disconnect's answer, 200 with no body.
 */
import fc from 'fast-check';
import {
  applyCase, type ChatSession, chatSweepRule, defineSpec, describeCase, describeExternalId, exchangeRule, EXTERNAL_ID_BOUNDARY,
  externalIdAccepted, type ExternalIdCase, type FieldCase, fieldCaseArb, type FieldSpec, invalidExternalId, jsonContentType, type MessagePayload,
  type HttpResponse, newMessageBody, noBody, spareChannel, status, sweepCases, validExternalId, conversationWith, type Conversation,
  caseReading, type CaseReading, refusalChecks,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;
const refusal = [status(400), jsonContentType];
const accepted = [status(200)];

/** A valid new message event in a fresh conversation of its own. */
function messageEvent(s: ChatSession, over: Partial<MessagePayload> = {}): { event_type: string; payload: MessagePayload } {
  return newMessageBody(s.payload(s.conversationId(), s.client(), over));
}

/** A quoted message given in full (no id, no msgid), as §2.11 requires it then. */
const fullEmbedded = () => ({ type: 'text', text: 'forwarded', timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, sender: { name: 'Someone' } });

const FW = ['payload', 'forwards', 'messages', 0];
/** §2.11 fields required of a forwarded message without id: the same as of a quoted one (chat.embedded.required). */
const FORWARDED_FIELDS: FieldSpec[] = [
  { path: [...FW, 'type'], type: 'enum' }, { path: [...FW, 'text'], type: 'string' }, { path: [...FW, 'timestamp'], type: 'int' },
  { path: [...FW, 'msec_timestamp'], type: 'int' }, { path: [...FW, 'sender'], type: 'object' }, { path: [...FW, 'sender', 'name'], type: 'string' },
];

/** A broken value and the reading that judges its acceptance (docs/verdicts.md); without one, `required-member`. */
interface Broken { readonly what: string; readonly value: unknown; readonly reading?: CaseReading }

const refusalOf = (c: Broken) => refusalChecks(c.reading ?? 'required-member');

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: validation per route',
  level: 'must',
  rules: [
    chatSweepRule<Broken>(
      { id: 'chat.create-chat.conversation-id', requires: ['write'],
        title: 'Create chat without conversation_id, or with one that is not a non-empty string, is refused with 400 (accepting it is non_strict)',
        reading: 'The create-chat table leaves conversation_id (string) unmarked where user[avatar] and the others are marked optional: unmarked-member (missing or empty and accepted is non_strict); another JSON type accepted is non_strict (wrong-type).',
        covers: ['4.3/Create chat/conversation_id'] },
      {
        connect: true,
        named: [
          { what: 'missing', value: undefined, reading: 'unmarked-member' }, { what: 'a number (42)', value: 42, reading: 'wrong-type' }, { what: 'null', value: null, reading: 'wrong-type' },
          { what: 'an object', value: { id: 'x' }, reading: 'wrong-type' }, { what: 'an empty string', value: '', reading: 'unmarked-member' },
        ],
        send: (s, c) => s.postChats({ ...(c.value !== undefined && { conversation_id: c.value }), user: s.client() }),
        expect: refusalOf,
        label: (c) => `conversation_id ${c.what}`,
      },
    ),
    chatSweepRule<ExternalIdCase>(
      { id: 'chat.create-chat.source', requires: ['write'],
        title: 'Create chat: source.external_id of up to 40 printable ASCII characters, an integer or a boolean is accepted; 41 characters or a non-printable character is refused',
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
        ],
        cases: () => fc.oneof(validExternalId, invalidExternalId),
        send: (s, c) => s.createChat(s.conversationId(), s.client(), { source: { external_id: c.value } }),
        expect: (c) => (externalIdAccepted(c) ? accepted : refusal),
        label: describeExternalId,
      },
    ),
    chatSweepRule<Broken>(
      { id: 'chat.reply-to.message-required', requires: ['write'],
        title: 'A reply_to without message, or whose message is not an object, is refused with 400',
        reading: '§4.3 payload table: reply_to carries `message` (required, an embedded message of §2.11).',
        covers: [SEND('reply_to')] },
      {
        connect: true,
        named: [
          { what: 'an empty reply_to', value: {} }, { what: 'message null', value: { message: null }, reading: 'wrong-type' },
          { what: 'message a string', value: { message: 'quoted' }, reading: 'wrong-type' }, { what: 'message an array', value: { message: [fullEmbedded()] }, reading: 'wrong-type' },
          { what: 'the quote beside message', value: { msg: fullEmbedded() } },
        ],
        send: (s, c) => s.postEvent(messageEvent(s, { reply_to: c.value as MessagePayload['reply_to'] })),
        expect: refusalOf,
        label: (c) => c.what,
      },
    ),
    chatSweepRule<Broken>(
      { id: 'chat.forwards.messages-required', requires: ['write'],
        title: 'A forwards without messages, or whose messages is not an array, is refused with 400',
        reading: '§4.3 payload table: forwards carries `messages` (a required array of embedded messages).',
        covers: [SEND('forwards')] },
      {
        connect: true,
        named: [
          { what: 'an empty forwards', value: {} }, { what: 'messages an object', value: { messages: {} }, reading: 'wrong-type' },
          { what: 'messages null', value: { messages: null }, reading: 'wrong-type' }, { what: 'messages one embedded message, not in an array', value: { messages: fullEmbedded() }, reading: 'wrong-type' },
          { what: 'only conversation_id', value: { conversation_id: 'elsewhere' } },
        ],
        send: (s, c) => s.postEvent(messageEvent(s, { forwards: c.value as MessagePayload['forwards'] })),
        expect: refusalOf,
        label: (c) => c.what,
      },
    ),
    chatSweepRule<FieldCase>(
      { id: 'chat.forwards.embedded-required', requires: ['write'],
        title: 'A forwarded message given without id or msgid must carry type, text (for text), timestamp, msec_timestamp and sender with name; else 400',
        reading: '§4.3: forwards.messages is an array of §2.11 embedded messages, whose fields are required when no id is given, as for reply_to.',
        covers: [SEND('forwards'), '2.11/type', '2.11/text', '2.11/timestamp', '2.11/msec_timestamp', '2.11/sender'] },
      {
        connect: true,
        named: sweepCases(FORWARDED_FIELDS),
        cases: () => fieldCaseArb(FORWARDED_FIELDS),
        send: (s, c) => s.postEvent(applyCase(messageEvent(s, { forwards: { messages: [fullEmbedded()] } }), c)),
        expect: (c) => refusalChecks(caseReading(c)),
        label: describeCase,
      },
    ),
    chatSweepRule<string>(
      { id: 'chat.message-event.unknown-type', requires: ['write'],
        title: 'A message event whose event_type is neither new_message nor edit_message (typing, react, delete_message, another spelling) is refused with 400',
        reading: '§4.3: event_type is `new_message` or `edit_message`; the other kinds of event have endpoints of their own (§6), so the message endpoint does not take them.',
        covers: [SEND('event_type')] },
      {
        connect: true,
        named: ['typing', 'react', 'delete_message', 'NEW_MESSAGE', 'new-message', 'message', ''],
        send: (s, type) => s.postEvent({ ...messageEvent(s), event_type: type }),
        expect: refusal,
        label: (type) => `event_type ${JSON.stringify(type)}`,
      },
    ),
    chatSweepRule<'react' | 'unreact', Conversation>(
      { id: 'chat.react.without-emoji', requires: ['write'],
        title: 'A react and an unreact without emoji are accepted with 200',
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
    exchangeRule<HttpResponse, ChatSession>(
      { id: 'chat.disconnect.no-body', requires: ['write'], needs: ['second-channel'],
        title: 'Disconnect answers 200 with no body',
        reading: '§4.3 disconnect: "Response 200 with no body". An empty JSON value is non_strict; any other body fails. Runs on a channel of its own (without a control API, CHANNEL_ID_2).',
        covers: ['4.3/Disconnect channel'] },
      {
        setup: async (t) => {
          const own = await spareChannel(t);
          await own.scope();
          return own;
        },
        send: (_t, own) => own.disconnect(),
        expect: [status(200), noBody],
      },
    ),
  ],
});
