/**
 * The chat objects of §2.5–§2.11 (participant, source, message, shared_post, delivery_status, post, embedded message)
 * and the message event of §4.3: every required field omitted or of the wrong type is refused with 400, every optional
 * one may be omitted, and each limit is checked on both sides of its boundary. Cases come from
 * generators/chat-requests.ts: a deterministic sweep of every named case, then random ones.
 */
import fc from 'fast-check';
import {
  applyCase, type ChatSession, chatSession, createdChat, defineSpec, describeCase, EXTERNAL_ID_BOUNDARY, type ExternalIdCase, fail, type FieldCase, fieldCaseArb, type FieldSpec, type Finding, invalidExternalId, jsonContentType, type MessagePayload, newMessageBody, omittedSubsetArb, parseJson, pass, rule, sampleMessage, status, sweepCases, sweepThenProperty, validExternalId,
} from './kit.js';

const refusal = [status(400), jsonContentType];
const accepted = [status(200)];
const labelled = (what: string, findings: Finding[]): Finding[] => findings.map((f) => ({ ...f, detail: `${what}: ${f.detail}` }));

/** A valid message event in a fresh conversation of its own, as a plain object the cases are applied to. */
function messageEvent(s: ChatSession, over: Partial<MessagePayload> = {}): { event_type: string; payload: MessagePayload } {
  return newMessageBody(s.payload(s.conversationId(), s.client(), over));
}

/** Sends one broken (or trimmed) copy of `body` to the endpoint its first path segment names. */
async function sendCase(s: ChatSession, body: Record<string, unknown>, c: FieldCase | { path: readonly (string | number)[]; breakage: 'missing' }): Promise<ReturnType<ChatSession['postEvent']>> {
  const broken = applyCase(body, c);
  return 'event_type' in body ? s.postEvent(broken) : s.postChats(broken);
}

/** Sweep + property over field cases of one body: each broken copy must be refused with 400. */
function requiredRule(meta: { id: string; section?: string; title: string; reading?: string; covers: string[] }, build: (s: ChatSession) => Record<string, unknown>, fields: readonly FieldSpec[]) {
  return rule({ ...meta, level: 'must', requires: ['write'] }, async (t) => {
    const s = await chatSession(t);
    await s.scope();
    return sweepThenProperty(t, { named: sweepCases(fields), cases: fieldCaseArb(fields), check: async (c) => labelled(describeCase(c), t.check(await sendCase(s, build(s), c), refusal)) });
  });
}

/** Sweep (each optional path omitted alone) + property (random subsets omitted): each trimmed copy is accepted. */
function optionalRule(meta: { id: string; section?: string; title: string; reading?: string; covers: string[] }, build: (s: ChatSession) => Record<string, unknown>, paths: readonly (readonly (string | number)[])[]) {
  return rule({ ...meta, level: 'must', requires: ['write'] }, async (t) => {
    const s = await chatSession(t);
    await s.scope();
    const one = async (omit: readonly (readonly (string | number)[])[]) => {
      let body = build(s);
      // Deepest first, so omitting a parent after its child is harmless.
      for (const path of [...omit].sort((a, b) => b.length - a.length)) body = applyCase(body, { path, breakage: 'missing' });
      return labelled(`without ${omit.map((p) => p.join('.')).join(', ')}`, t.check('event_type' in body ? await s.postEvent(body) : await s.postChats(body), accepted));
    };
    return sweepThenProperty(t, { named: paths.map((p) => [p]), cases: omittedSubsetArb(paths), check: one });
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
      [{ path: P('payload', 'sender'), type: 'object' }, { path: P('payload', 'sender', 'id'), type: 'string' }, { path: P('payload', 'sender', 'name'), type: 'string' }],
    ),
    optionalRule(
      { id: 'chat.participant.optional', title: 'avatar, profile (phone, email) and profile_link of a participant may each be omitted',
        covers: ['2.5/avatar', '2.5/profile', '2.5/profile_link', '4.3/Create chat/user[avatar]', '4.3/Create chat/user[profile][phone]', '4.3/Create chat/user[profile][email]', '4.3/Create chat/user[profile_link]'] },
      (s) => ({ conversation_id: s.conversationId(), user: fullParticipant(s) }),
      [P('user', 'avatar'), P('user', 'profile'), P('user', 'profile', 'phone'), P('user', 'profile', 'email'), P('user', 'profile_link')],
    ),
    rule(
      { id: 'chat.participant.answer', requires: ['write'], title: 'The created chat\'s user carries phone and email when given, and leaves them out when not',
        reading: '§2.5: in responses, phone and email are "both absent when not given"; avatar is empty if not given.', covers: ['2.5/profile', '2.5/avatar'] },
      async (t) => {
        const s = await chatSession(t);
        const full = fullParticipant(s);
        const bare = s.client('Bare');
        const a = await s.createChat(s.conversationId(), full);
        const b = await s.createChat(s.conversationId(), bare);
        const ua = (parseJson(a) as { user?: Record<string, unknown> } | undefined)?.user ?? {};
        const ub = (parseJson(b) as { user?: Record<string, unknown> } | undefined)?.user ?? {};
        return t.outcome([
          ...t.check(a, [status(200), createdChat(full.id)]),
          ua.phone === full.profile.phone && ua.email === full.profile.email ? pass('given', 'phone and email returned') : fail('given', `expected phone and email as sent, observed ${JSON.stringify({ phone: ua.phone, email: ua.email })}`),
          ub.phone === undefined && ub.email === undefined ? pass('not given', 'phone and email absent') : fail('not given', `expected no phone and no email, observed ${JSON.stringify({ phone: ub.phone, email: ub.email })}`),
          ub.avatar === undefined || ub.avatar === '' ? pass('avatar', 'empty') : fail('avatar', `expected an empty avatar, observed ${JSON.stringify(ub.avatar)}`),
        ]);
      },
    ),

    // §2.6 source, §8 external_id limit
    rule(
      { id: 'chat.source.external-id', section: '2.6', requires: ['write'], title: 'external_id: a string of up to 40 printable ASCII characters, an integer or a boolean is accepted; 41 characters or a non-printable character is refused',
        reading: '§2.6 and §8: up to 40 characters, printable ASCII and space. Both sides of the boundary (40, 41) are always sent; non-ASCII letters count as non-printable.',
        covers: ['2.6/external_id', '8/Source external_id', '4.3/Send, edit or import a message/source', '4.3/Create chat/source[external_id]'] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const named: ExternalIdCase[] = [
          { variant: 'printable', value: EXTERNAL_ID_BOUNDARY.accepted },
          { variant: 'too-long', value: EXTERNAL_ID_BOUNDARY.refused },
          { variant: 'printable', value: ' ~!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}' },
          { variant: 'non-printable', value: 'tab\there', char: '\t' },
          { variant: 'integer', value: 42 },
          { variant: 'boolean', value: true },
        ];
        const ok = (c: ExternalIdCase) => c.variant === 'printable' || c.variant === 'integer' || c.variant === 'boolean';
        return sweepThenProperty(t, { named: named, cases: fc.oneof(validExternalId, invalidExternalId), check: async (c) => {
          const res = await s.sendMessage(s.payload(s.conversationId(), s.client(), { source: { external_id: c.value } }));
          return labelled(`${c.variant} ${JSON.stringify(c.value)} (${String(c.value).length} characters)`, t.check(res, ok(c) ? accepted : refusal));
        } });
      },
    ),

    // §2.7 message
    rule(
      { id: 'chat.message.required', section: '2.7', requires: ['write'], title: 'A message without type, or without a field its type requires, or with one of another type, is refused with 400',
        reading: '§2.7: type required; text for text; file_name and file_size (and the media link) for file, video, picture; location (lon, lat) for location; contact (name, phone) for contact.',
        covers: ['2.7/type', '2.7/text', '2.7/media', '2.7/file_name', '2.7/file_size', '2.7/location', '2.7/contact', '4.3/Send, edit or import a message/message'] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const M = ['payload', 'message'];
        const byType: Record<string, FieldSpec[]> = {
          text: [{ path: [...M], type: 'object' }, { path: [...M, 'type'], type: 'enum' }, { path: [...M, 'text'], type: 'string' }],
          picture: [{ path: [...M, 'media'], type: 'string' }, { path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
          file: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
          video: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
          location: [{ path: [...M, 'location'], type: 'object' }, { path: [...M, 'location', 'lon'], type: 'number' }, { path: [...M, 'location', 'lat'], type: 'number' }],
          contact: [{ path: [...M, 'contact'], type: 'object' }, { path: [...M, 'contact', 'name'], type: 'string' }, { path: [...M, 'contact', 'phone'], type: 'string' }],
        };
        type Case = FieldCase & { messageType: string };
        const named: Case[] = Object.entries(byType).flatMap(([messageType, fields]) => sweepCases(fields).map((c) => ({ ...c, messageType })));
        named.push({ path: [...M, 'type'], type: 'enum', breakage: 'wrong-type', wrongType: 'an unknown type', value: 'gif', messageType: 'text' });
        const arb = fc.constantFrom(...Object.keys(byType)).chain((messageType) => fieldCaseArb(byType[messageType]!).map((c) => ({ ...c, messageType })));
        return sweepThenProperty(t, { named: named, cases: arb, check: async (c) => {
          const body = messageEvent(s, { message: sampleMessage(c.messageType, c.messageType === 'text' ? 'hi' : '') });
          return labelled(`${c.messageType}: ${describeCase(c)}`, t.check(await s.postEvent(applyCase(body, c)), refusal));
        } });
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
    rule(
      { id: 'chat.shared-post.type', section: '2.8', requires: ['write'], title: 'shared_post.type "post" is accepted; any other type is refused with 400',
        reading: '§2.8: "only post is supported".', covers: ['2.8/type', '2.8/url'] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const named = ['post', 'article', 'video', 'Post', ''];
        const arb = fc.oneof(fc.constant('post'), fc.string({ maxLength: 10 }).filter((x) => x !== 'post'));
        return sweepThenProperty(t, { named: named, cases: arb, check: async (type) => {
          const body = messageEvent(s, { message: { ...sampleMessage('text', 'shared'), shared_post: { url: 'https://social.example/post/2', type } } });
          return labelled(`type ${JSON.stringify(type)}`, t.check(await s.postEvent(body), type === 'post' ? accepted : refusal));
        } });
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
    rule(
      { id: 'chat.embedded.by-type', section: '2.11', requires: ['write'], title: 'A quoted location or contact without id needs its location or contact; file_name, file_size and media_duration are optional',
        covers: ['2.11/location', '2.11/contact', '2.11/file_name', '2.11/file_size', '2.11/media_duration'] },
      async (t) => {
        const s = await chatSession(t);
        const base = fullEmbedded();
        const cases: [string, Record<string, unknown>, boolean][] = [
          ['location with location', { ...base, type: 'location', location: { lon: 1.5, lat: 2.5 } }, true],
          ['location without location', { ...base, type: 'location' }, false],
          ['contact with contact', { ...base, type: 'contact', contact: { name: 'A', phone: '+1' } }, true],
          ['contact without contact', { ...base, type: 'contact' }, false],
          ['file with file_name, file_size, media_duration', { ...base, type: 'file', file_name: 'a.pdf', file_size: 10, media_duration: 0 }, true],
          ['file without them', { ...base, type: 'file' }, true],
        ];
        const f: Finding[] = [];
        for (const [what, message, ok] of cases) f.push(...labelled(what, t.check(await s.postEvent(messageEvent(s, { reply_to: { message } })), ok ? accepted : refusal)));
        return t.outcome(f);
      },
    ),

    // §4.3 the message event itself
    requiredRule(
      { id: 'chat.message-event.required', section: '4.3', title: 'A message event without event_type, payload, timestamps, conversation_id, msgid or message, or with one of another type, is refused with 400',
        reading: 'The §4.3 payload table marks optional fields as such; the unmarked ones (timestamp, msec_timestamp, conversation_id, msgid, sender) are required for a new message.',
        covers: ['event_type', 'payload', 'timestamp', 'msec_timestamp', 'conversation_id', 'msgid', 'message', 'silent'].map((k) => `4.3/Send, edit or import a message/${k}`) },
      (s) => messageEvent(s),
      [
        { path: P('event_type'), type: 'enum' }, { path: P('payload'), type: 'object' }, { path: P('payload', 'timestamp'), type: 'int' },
        { path: P('payload', 'msec_timestamp'), type: 'int' }, { path: P('payload', 'conversation_id'), type: 'string' }, { path: P('payload', 'msgid'), type: 'string' },
      ],
    ),
  ],
});
