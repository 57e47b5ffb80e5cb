/**
 * The chat objects of §2.5–§2.11 (participant, source, message, shared_post, delivery_status, post, embedded message)
 * and the message event of §4.3: every required field omitted or of the wrong type is refused with 400, every optional
 * one may be omitted, and each limit is checked on both sides of its boundary. Cases come from
 * generators/chat-requests.ts: a deterministic sweep of every named case, then random ones.
 */
import fc from 'fast-check';
import {
  absentWhenNotGiven, applyCase, avatarGiven, chatSession, ChatSession, chatSweepRule, createdChat, defineSpec, describeCase, describeExternalId, describeOmitted, emptyAvatar, equals, EXTERNAL_ID_BOUNDARY, externalIdAccepted, type ExternalIdCase, field, type FieldCase, fieldCaseArb, type FieldSpec, invalidExternalId, jsonContentType, type MessagePayload, newMessageBody, omittedSubsetArb, type ParticipantBody, phoneShownAs, refusalPreferred, type RuleMeta, sampleMessage, scenarioRule, status, step, sweepCases, validExternalId, withoutPaths, caseReading, refusalChecks,
} from './kit.js';

const refusal = [status(400), jsonContentType];
const accepted = [status(200)];

/** A valid message event in a fresh conversation of its own, as a plain object the cases are applied to. */
function messageEvent(s: ChatSession, over: Partial<MessagePayload> = {}): { event_type: string; payload: MessagePayload } {
  return newMessageBody(s.payload(s.conversationId(), s.client(), over));
}

/** A message event goes to the message endpoint, anything else is a create-chat body. */
function post(s: ChatSession, body: Record<string, unknown>) {
  return 'event_type' in body ? s.postEvent(body) : s.postChats(body);
}

/** The answer to one broken member, judged by its case's reading (required, unmarked, wrong type, enumeration). */
const refusalOf = (c: FieldCase) => refusalChecks(caseReading(c));

/**
 * Sweep + property over field cases of one body: each broken copy should be refused with 400; what accepting it gives
 * follows the case's reading (a required member missing fails; an unmarked one missing or a wrong JSON type is non_strict).
 */
function requiredRule(meta: RuleMeta, build: (s: ChatSession) => Record<string, unknown>, fields: readonly FieldSpec[]) {
  return chatSweepRule<FieldCase>({ ...meta, requires: ['write'] }, {
    connect: true,
    named: sweepCases(fields),
    cases: () => fieldCaseArb(fields),
    send: (s, c) => post(s, applyCase(build(s), c)),
    expect: refusalOf,
    label: describeCase,
  });
}

/** Sweep (each optional path omitted alone) + property (random subsets omitted): each trimmed copy is accepted. */
function optionalRule(meta: RuleMeta, build: (s: ChatSession) => Record<string, unknown>, paths: readonly (readonly (string | number)[])[]) {
  return chatSweepRule<(readonly (string | number)[])[]>({ ...meta, requires: ['write'] }, {
    connect: true,
    named: paths.map((p) => [p]),
    cases: () => omittedSubsetArb(paths),
    send: (s, omit) => post(s, withoutPaths(build(s), omit)),
    expect: accepted,
    label: describeOmitted,
  });
}

const fullParticipant = (s: ChatSession) => ({ ...s.client('Full Participant'), avatar: 'https://files.example/avatar.png', profile: { phone: '+10000000001', email: 'client@example.com' }, profile_link: 'https://social.example/client' });

const fullMessage = () => ({
  type: 'text', text: 'with every optional field', sticker_id: 'sticker-1', callback_data: 'button-1', media_duration: 3,
  delivery_status: { status_code: 1 },
  shared_post: { url: 'https://social.example/post/1', type: 'post', preview_link: 'https://files.example/p.png', preview_permalink: 'https://files.example/pp.png', site_name: 'Social' },
});

const commentMessage = () => ({
  type: 'text', text: 'a comment',
  post: { id: 'post-1', url: 'https://social.example/post/1', preview_url: 'https://files.example/p.png', preview_permalink: 'https://files.example/pp.png', username: 'author', caption: 'A post' },
});

const fullEmbedded = () => ({ type: 'text', text: 'quoted', timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, sender: { name: 'Someone' } });

const P = (...path: (string | number)[]) => path;

const M = ['payload', 'message'];
/** §2.7: the fields each message type requires. */
const MESSAGE_FIELDS: Record<string, FieldSpec[]> = {
  text: [{ path: [...M], type: 'object' }, { path: [...M, 'type'], type: 'enum' }, { path: [...M, 'text'], type: 'string' }],
  picture: [{ path: [...M, 'media'], type: 'string', unmarked: true }, { path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  file: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  video: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  location: [{ path: [...M, 'location'], type: 'object' }, { path: [...M, 'location', 'lon'], type: 'number' }, { path: [...M, 'location', 'lat'], type: 'number' }],
  contact: [{ path: [...M, 'contact'], type: 'object' }, { path: [...M, 'contact', 'name'], type: 'string' }, { path: [...M, 'contact', 'phone'], type: 'string' }],
};

type MessageCase = FieldCase & { messageType: string };

const MESSAGE_CASES: MessageCase[] = [
  ...Object.entries(MESSAGE_FIELDS).flatMap(([messageType, fields]) => sweepCases(fields).map((c) => ({ ...c, messageType }))),
  { path: [...M, 'type'], type: 'enum', breakage: 'wrong-type', wrongType: 'an unknown type', value: 'gif', messageType: 'text' },
];

interface EmbeddedCase { readonly what: string; readonly message: Record<string, unknown>; readonly accepted: boolean }

const EMBEDDED_CASES: EmbeddedCase[] = [
  { what: 'location with location', message: { ...fullEmbedded(), type: 'location', location: { lon: 1.5, lat: 2.5 } }, accepted: true },
  { what: 'location without location', message: { ...fullEmbedded(), type: 'location' }, accepted: false },
  { what: 'contact with contact', message: { ...fullEmbedded(), type: 'contact', contact: { name: 'A', phone: '+1' } }, accepted: true },
  { what: 'contact without contact', message: { ...fullEmbedded(), type: 'contact' }, accepted: false },
  { what: 'file with file_name, file_size, media_duration', message: { ...fullEmbedded(), type: 'file', file_name: 'a.pdf', file_size: 10, media_duration: 0 }, accepted: true },
  { what: 'file without them', message: { ...fullEmbedded(), type: 'file' }, accepted: true },
];

export default defineSpec({
  section: '2.5',
  title: 'Chat objects (§2.4–§2.11) and the message event',
  level: 'must',
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
      { id: 'chat.participant.answer', requires: ['write'], title: 'The created chat\'s user carries avatar, phone and email when given, and leaves phone and email out when not',
        reading: '§2.5: in responses, phone and email are "both absent when not given"; avatar is empty if not given, and shows the one given (the URL sent or a re-hosted copy) when given. answer-member: null or "" for phone and email, and null or no member for avatar, are non_strict; a phone given back in another spelling of the same number (digits only) is non_strict (C6–C8 of the review).', covers: ['2.5/profile', '2.5/avatar'] },
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

    // §2.6 source, §8 external_id limit
    chatSweepRule<ExternalIdCase>(
      { id: 'chat.source.external-id', section: '2.6', requires: ['write'], title: 'external_id: a string of up to 40 printable ASCII characters, an integer or a boolean is accepted; 41 characters or a non-printable character is refused',
        reading: '§2.6 and §8: up to 40 characters, printable ASCII and space. Both sides of the boundary (40, 41) are always sent; non-ASCII letters count as non-printable.',
        covers: ['2.6/external_id', '8/Source external_id', '4.3/Send, edit or import a message/source', '4.3/Create chat/source[external_id]'] },
      {
        connect: true,
        named: [
          { variant: 'printable', value: EXTERNAL_ID_BOUNDARY.accepted },
          { variant: 'too-long', value: EXTERNAL_ID_BOUNDARY.refused },
          { variant: 'printable', value: ' ~!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}' },
          { variant: 'non-printable', value: 'tab\there', char: '\t' },
          { variant: 'integer', value: 42 },
          { variant: 'boolean', value: true },
        ],
        cases: () => fc.oneof(validExternalId, invalidExternalId),
        send: (s, c) => s.sendMessage(s.payload(s.conversationId(), s.client(), { source: { external_id: c.value } })),
        expect: (c) => (externalIdAccepted(c) ? accepted : refusal),
        label: describeExternalId,
      },
    ),

    // §2.7 message
    chatSweepRule<MessageCase>(
      { id: 'chat.message.required', section: '2.7', requires: ['write'], title: 'A message without type, or without a field its type requires, or with one of another type, is refused with 400',
        reading: '§2.7: type required; text for text; file_name and file_size for file, video, picture; location (lon, lat) for location; contact (name, phone) for contact: accepted without them fails. media is left unmarked ("Link to image, file, …"): a picture without it accepted is non_strict (C10 of the review); a value of another JSON type coerced or ignored and accepted is non_strict (wrong-type, C11); a type outside the list accepted fails (enumeration).',
        covers: ['2.7/type', '2.7/text', '2.7/media', '2.7/file_name', '2.7/file_size', '2.7/location', '2.7/contact', '4.3/Send, edit or import a message/message'] },
      {
        connect: true,
        named: MESSAGE_CASES,
        cases: () => fc.constantFrom(...Object.keys(MESSAGE_FIELDS)).chain((messageType) => fieldCaseArb(MESSAGE_FIELDS[messageType]!).map((c) => ({ ...c, messageType }))),
        send: (s, c) => s.postEvent(applyCase(messageEvent(s, { message: sampleMessage(c.messageType, c.messageType === 'text' ? 'hi' : '') }), c)),
        expect: refusalOf,
        label: (c) => `${c.messageType}: ${describeCase(c)}`,
      },
    ),
    optionalRule(
      { id: 'chat.message.optional', section: '2.7', title: 'sticker_id, callback_data, media_duration, delivery_status and shared_post (and its preview fields) may each be omitted',
        covers: ['2.7/sticker_id', '2.7/callback_data', '2.7/media_duration', '2.7/delivery_status', '2.7/shared_post', '2.8/preview_link', '2.8/preview_permalink', '2.8/site_name', '2.8/url'] },
      (s) => messageEvent(s, { message: fullMessage() }),
      ['sticker_id', 'callback_data', 'media_duration', 'delivery_status', 'shared_post', ['shared_post', 'preview_link'], ['shared_post', 'preview_permalink'], ['shared_post', 'site_name']]
        .map((p) => ['payload', 'message', ...(Array.isArray(p) ? p : [p])]),
    ),

    // §2.8 shared_post
    chatSweepRule<string>(
      { id: 'chat.shared-post.type', section: '2.8', requires: ['write'], title: 'shared_post.type "post" is accepted; any other type is refused with 400 (accepted: non_strict)',
        reading: '§2.8: "only post is supported" says what is supported, not what the request may carry (enumeration, C14 of the review): "post" refused fails; another type refused with 400 passes, accepted is non_strict.', covers: ['2.8/type', '2.8/url'] },
      {
        connect: true,
        named: ['post', 'article', 'video', 'Post', ''],
        cases: () => fc.oneof(fc.constant('post'), fc.string({ maxLength: 10 }).filter((x) => x !== 'post')),
        send: (s, type) => s.postEvent(messageEvent(s, { message: { ...sampleMessage('text', 'shared'), shared_post: { url: 'https://social.example/post/2', type } } })),
        expect: (type) => (type === 'post' ? accepted : [refusalPreferred('status 400'), jsonContentType]),
        label: (type) => `type ${JSON.stringify(type)}`,
      },
    ),

    // §2.10 post (comments)
    requiredRule(
      { id: 'chat.post.required', section: '2.10', title: 'A comment whose post lacks id or url, or has either of another type, is refused with 400',
        covers: ['2.10/id', '2.10/url', '2.7/post', '4.3/Send a comment'] },
      (s) => messageEvent(s, { message: commentMessage() }),
      [{ path: P('payload', 'message', 'post', 'id'), type: 'string' }, { path: P('payload', 'message', 'post', 'url'), type: 'string' }],
    ),
    optionalRule(
      { id: 'chat.post.optional', section: '2.10', title: 'preview_url, preview_permalink, username and caption of a commented post may each be omitted',
        covers: ['2.10/preview_url', '2.10/preview_permalink', '2.10/username', '2.10/caption'] },
      (s) => messageEvent(s, { message: commentMessage() }),
      ['preview_url', 'preview_permalink', 'username', 'caption'].map((k) => ['payload', 'message', 'post', k]),
    ),

    // §2.11 embedded message
    requiredRule(
      { id: 'chat.embedded.required', section: '2.11', title: 'A quoted message given without id or msgid must carry type, text (for text), timestamp, msec_timestamp and sender with name; else 400',
        reading: '§2.11: with id or msgid the rest is resolved; without, those fields are required.',
        covers: ['2.11/type', '2.11/text', '2.11/timestamp', '2.11/msec_timestamp', '2.11/sender', '4.3/Send, edit or import a message/reply_to'] },
      (s) => messageEvent(s, { reply_to: { message: fullEmbedded() } }),
      ['type', 'text', 'timestamp', 'msec_timestamp', 'sender'].map((k) => ({ path: ['payload', 'reply_to', 'message', k], type: k === 'sender' ? 'object' as const : k.includes('timestamp') ? 'int' as const : k === 'type' ? 'enum' as const : 'string' as const }))
        .concat([{ path: ['payload', 'reply_to', 'message', 'sender', 'name'], type: 'string' }]),
    ),
    chatSweepRule<EmbeddedCase>(
      { id: 'chat.embedded.by-type', section: '2.11', requires: ['write'], title: 'A quoted location or contact without id needs its location or contact; file_name, file_size and media_duration are optional',
        covers: ['2.11/location', '2.11/contact', '2.11/file_name', '2.11/file_size', '2.11/media_duration'] },
      {
        named: EMBEDDED_CASES,
        send: (s, c) => s.postEvent(messageEvent(s, { reply_to: { message: c.message } })),
        expect: (c) => (c.accepted ? accepted : refusal),
        label: (c) => c.what,
      },
    ),

    // §4.3 the message event itself
    requiredRule(
      { id: 'chat.message-event.required', section: '4.3', title: 'A message event without event_type, payload, timestamps, conversation_id, msgid or message, or with one of another type, is refused with 400',
        reading: 'The §4.3 payload table marks optional fields as such and leaves event_type, payload, timestamp, msec_timestamp, conversation_id, msgid and sender unmarked (unmarked-member: missing and accepted is non_strict); message is "Required"; a value of another JSON type accepted is non_strict (wrong-type), an event_type outside new_message/edit_message accepted fails (enumeration).',
        covers: ['event_type', 'payload', 'timestamp', 'msec_timestamp', 'conversation_id', 'msgid', 'message', 'silent'].map((k) => `4.3/Send, edit or import a message/${k}`) },
      (s) => messageEvent(s),
      [
        { path: P('event_type'), type: 'enum', unmarked: true }, { path: P('payload'), type: 'object', unmarked: true }, { path: P('payload', 'timestamp'), type: 'int', unmarked: true },
        { path: P('payload', 'msec_timestamp'), type: 'int', unmarked: true }, { path: P('payload', 'conversation_id'), type: 'string', unmarked: true }, { path: P('payload', 'msgid'), type: 'string', unmarked: true },
      ],
    ),
  ],
});
