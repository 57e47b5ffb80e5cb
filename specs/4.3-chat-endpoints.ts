/**
 * §4.3 Chat interface endpoints: connect, disconnect, create chat, send / edit / import a message, comments, history,
 * typing and reactions, with the §7 codes (404 for an unknown channel or message, 204 for an empty history) and the
 * §8 limits (history limit 50, one forward, typing default 5000 ms). Every chat rule works in its own conversations.
 */
import fc from 'fast-check';
import {
  applyCase, arrayAt, ODD_MESSAGE_EVENTS, sweepRule, chatPaths, chatSession, ChatSession, connectAnswer, connectBody, countByClientId, createdChat, defaultOrAbsent, defineSpec,
  describeCase, editMessageBody, noBody, exchangeRule, fail, fieldCaseArb, type FieldSpec, type Finding, type HistoryItem, jsonAt,
  jsonContentType, matchesSchema, newMessageAnswer, noServerError, observed, oddMessageEvent, pass, Precondition, rule, sampleMessage,
  status, sweepCases, sweepThenProperty, isSuccess, nonStrict, refusalPreferred, scenarioRule, step, whenAccepted, caseReading, editAnswer,
  effectCountsOver, leadsAre, notificationsAre, leadsOnceSeen, emptyHistory, pageSize, overLimit, refusalChecks, jsonContentTypeIfRefused, labelled, senderIs, senderRefIs,
} from './kit.js';

const CONNECT = (f: string) => `4.3/Connect channel/${f}`;
const CREATE = (f: string) => `4.3/Create chat/${f}`;
const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;
const HISTORY = (f: string) => `4.3/Get chat history/${f}`;
const REACT = (f: string) => `4.3/Reaction/${f}`;

const refusal = [status(400), jsonContentType];
/** Answers a busy server may give some of many parallel requests: non_strict beside the 200s (C33). */
const BUSY = [409, 429];

async function chatIdOf(s: ChatSession, conv: string, user = s.client()): Promise<string> {
  const res = await s.createChat(conv, user);
  const id = jsonAt(res, 'id');
  if (!isSuccess(res.status) || typeof id !== 'string') throw new Precondition(`creating a chat answered ${res.status}`);
  return id;
}

/** The history item of a msgid, or a failed finding saying it is missing. */
function itemOf(items: readonly HistoryItem[], msgid: string): HistoryItem | undefined {
  return items.find((i) => i.message?.client_id === msgid);
}

const CONNECT_FIELDS: readonly FieldSpec[] = [
  { path: ['account_id'], type: 'string' },
  { path: ['hook_api_version'], type: 'enum' },
  { path: ['title'], type: 'string' },
  { path: ['is_time_window_disabled'], type: 'bool' },
];

export default defineSpec({
  section: '4.3',
  title: 'Chat interface endpoints',
  level: 'must',
  rules: [
    // ---- connect and disconnect
    exchangeRule(
      { id: 'chat.connect.answer', requires: [], title: 'Connect answers 200 with the request fields plus a string scope_id',
        reading: 'docs/field-notes.md: scope_id is `<channel_id>_<account_id>`; any non-empty string passes.',
        covers: [CONNECT('account_id'), CONNECT('hook_api_version'), '2.4/account_id', '2.4/scope_id', '2.4/hook_api_version', '4.3/Connect channel'] },
      { send: async (t) => (await chatSession(t)).connect(), expect: async (t) => [status(200), jsonContentType, connectAnswer((await chatSession(t)).channel.accountId)] },
    ),
    scenarioRule<ChatSession>(
      { id: 'chat.connect.optional-omitted', requires: [], title: 'Connect without title and is_time_window_disabled succeeds; with account_id alone it succeeds and answers hook_api_version v1',
        reading: '§4.3: title and is_time_window_disabled are optional and "may be omitted": refused fails. hook_api_version is not marked optional but has a default (v1): connect without it refused with 400 is non_strict, and an answer without it is non_strict (C2 of the review).',
        covers: [CONNECT('title'), CONNECT('is_time_window_disabled'), '2.4/title', '2.4/is_time_window_disabled'] },
      {
        setup: (t) => chatSession(t),
        steps: [
          step('without title and is_time_window_disabled', (_t, s) => s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: connectBody(s.channel.accountId) }),
            (_t, s) => [status(200), connectAnswer(s.channel.accountId)]),
          step('account_id alone', (_t, s) => s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: { account_id: s.channel.accountId } }),
            (_t, s) => [status(200, { also: [400] }), whenAccepted(connectAnswer(s.channel.accountId)), whenAccepted(defaultOrAbsent('hook_api_version', 'v1'))]),
        ],
      },
    ),
    rule(
      { id: 'chat.connect.invalid', requires: [], title: 'Connect without account_id, or with a field of the wrong type or an unknown hook_api_version, is refused with 400',
        reading: 'Optional fields may be omitted, but when given they have the stated type; hook_api_version is v1 or v2 (§2.4). Only account_id is removed; the others are given wrong values. account_id missing or a hook_api_version outside v1, v2 accepted fails; a value of another JSON type coerced or ignored and accepted is non_strict (wrong-type, C31 of the review).',
        covers: [CONNECT('account_id'), CONNECT('hook_api_version'), CONNECT('title'), CONNECT('is_time_window_disabled')] },
      async (t) => {
        const s = await chatSession(t);
        const valid = { account_id: s.channel.accountId, hook_api_version: 'v1', title: 'Title', is_time_window_disabled: false };
        const cases = sweepCases(CONNECT_FIELDS).filter((c) => c.breakage === 'wrong-type' || c.path[0] === 'account_id');
        const named = [...cases, { path: ['hook_api_version'], type: 'enum' as const, breakage: 'wrong-type' as const, wrongType: 'an unknown version', value: 'v3' }];
        return sweepThenProperty(t, { named: named, cases: fieldCaseArb(CONNECT_FIELDS).filter((c) => c.breakage === 'wrong-type' || c.path[0] === 'account_id'), check: async (c) => {
          const res = await s.send({ method: 'POST', path: chatPaths.connect(s.channel.channelId), json: applyCase(valid, c) });
          return t.check(res, refusalChecks(caseReading(c))).map((f) => ({ ...f, detail: `${describeCase(c)}: ${f.detail}` }));
        } });
      },
    ),
    exchangeRule(
      { id: 'chat.connect.unknown-channel', requires: [], title: 'Connect to a channel that does not exist answers 404', covers: ['4.3/Connect channel'] },
      { send: async (t) => { const s = await chatSession(t); return s.send({ method: 'POST', path: chatPaths.connect(`no-such-channel-${t.runId}`), json: { account_id: s.channel.accountId } }); }, expect: [status(404), jsonContentType] },
    ),
    exchangeRule(
      { id: 'chat.disconnect.unknown-channel', requires: [], title: 'Disconnect of a channel that does not exist answers 404', covers: ['4.3/Disconnect channel'] },
      { send: async (t) => { const s = await chatSession(t); return s.send({ method: 'DELETE', path: chatPaths.disconnect(`no-such-channel-${t.runId}`), json: { account_id: s.channel.accountId } }); }, expect: [status(404), jsonContentType] },
    ),

    // ---- chats
    exchangeRule(
      { id: 'chat.create-chat.answer', requires: ['write'], title: 'Create chat answers 200 with a string id and the user (id, client_id = the integration-side id, name)',
        covers: [CREATE('conversation_id'), CREATE('user[id]'), CREATE('user[name]'), '4.3/Create chat'] },
      {
        send: async (t) => { const s = await chatSession(t); return s.createChat(s.conversationId(), { id: `client-${t.runId}-answer`, name: 'Answer' }); },
        expect: (t) => [status(200), jsonContentType, createdChat(`client-${t.runId}-answer`)],
      },
    ),
    rule(
      { id: 'chat.create-chat.idempotent', requires: ['write'], title: 'Creating a chat again for the same conversation_id returns the same chat id, whatever the user; a new conversation_id of the same user a new chat',
        reading: '§4.3: "if a chat already exists for conversation_id, its id is returned": the chat is keyed by conversation_id, so another user in the same conversation gets the same chat, and the same user in a new conversation gets another.', covers: [CREATE('conversation_id')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const user = s.client();
        const first = await chatIdOf(s, conv, user);
        const res = await s.createChat(conv, user);
        const again = jsonAt(res, 'id');
        const byOther = await s.createChat(conv, s.client());
        const otherUser = jsonAt(byOther, 'id');
        const newConv = await s.createChat(s.conversationId(), user);
        const fresh = jsonAt(newConv, 'id');
        return t.outcome([
          ...t.check(res, [status(200)]),
          again === first ? pass('same chat id', first) : fail('same chat id', `expected ${first} again, observed ${JSON.stringify(again)}`),
          ...t.check(byOther, [status(200)]),
          otherUser === first ? pass('same chat for another user', first) : fail('same chat for another user', `the same conversation_id with another user: expected ${first}, observed ${JSON.stringify(otherUser)}`),
          ...t.check(newConv, [status(200)]),
          typeof fresh === 'string' && fresh !== '' && fresh !== first ? pass('new chat for a new conversation', fresh) : fail('new chat for a new conversation', `a new conversation_id of the same user: expected a chat id other than ${first}, observed ${JSON.stringify(fresh)}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.create-chat.concurrent', requires: ['write'], title: '8 parallel creations of one conversation_id give one chat id',
        reading: 'Idempotency per conversation_id holds under concurrency: a client retrying on a timeout must not split a conversation in two. Every 200 carries one chat id; a 409 or 429 among the answers is non_strict (C33).', covers: [CREATE('conversation_id')] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const conv = s.conversationId();
        const user = s.client();
        const answers = await Promise.all(Array.from({ length: 8 }, () => s.createChat(conv, user)));
        const findings: Finding[] = answers.flatMap((r) => t.check(r, [status(200, { also: BUSY })])).filter((f) => f.verdict !== 'passed').slice(0, 2);
        // Only the successful creations carry an id: a 409 or 429 among them is non_strict (C33), not a second chat.
        const created = answers.filter((r) => isSuccess(r.status)).map((r) => jsonAt(r, 'id'));
        const distinct = new Set(created);
        findings.push(distinct.size === 1 && typeof created[0] === 'string' ? pass('one chat id', String(created[0])) : fail('one chat id', `expected one chat id from the ${created.length} successful of 8 parallel creations, observed ${distinct.size}: ${[...distinct].map(String).join(', ').slice(0, 200)}`));
        const after = await chatIdOf(s, conv, user);
        findings.push(after === created[0] ? pass('stable afterwards', after) : fail('stable afterwards', `a later creation answered ${after}, not ${String(created[0])}`));
        return t.outcome(findings);
      },
    ),

    // ---- messages
    rule(
      { id: 'chat.message.answer', requires: ['write'], title: 'A new message answers 200 with new_message {conversation_id, sender_id, receiver_id, msgid, ref_id = msgid sent}',
        reading: 'docs/field-notes.md: new and edited messages answer {"new_message":{...}}; receiver_id is null (or absent) for an incoming message. The optional payload fields (conversation_ref_id, source, receiver, reply_to, forwards) are omitted. The ids name what was sent: conversation_id ("Dialog id", neither side stated) is the conversation_id sent or the chat id create chat answered, not the chat created after it; sender_id is the client\'s id sent or the user id create chat answered for it.',
        covers: ['conversation_ref_id', 'new_message[conversation_id]', 'new_message[sender_id]', 'new_message[receiver_id]', 'new_message[msgid]', 'new_message[ref_id]', 'event_type', 'payload', 'timestamp', 'msec_timestamp', 'conversation_id', 'sender', 'msgid', 'message', 'silent'].map(SEND) },
      async (t) => {
        const s = await chatSession(t);
        const client = s.client();
        const conv = s.conversationId();
        const created = await s.createChat(conv, client);
        const chatId = jsonAt(created, 'id');
        const userId = jsonAt(created, ['user', 'id']);
        if (!isSuccess(created.status) || typeof chatId !== 'string') throw new Precondition(`creating a chat answered ${created.status}`);
        // A later chat of the scope, so that an answer naming the scope's latest chat instead of the message's shows.
        await chatIdOf(s, s.conversationId());
        const p = s.payload(conv, client);
        const res = await s.sendMessage(p);
        const senderIds = [client.id, ...(typeof userId === 'string' ? [userId] : [])];
        return t.outcome(t.check(res, [status(200), jsonContentType, newMessageAnswer({ msgid: p.msgid, conversationId: p.conversation_id, outgoing: false, chatId, senderIds })]));
      },
    ),
    rule(
      { id: 'chat.message.kinds', requires: ['write'], title: 'Incoming, manager and bot messages are accepted and the history tells them apart (client_id only for the client)',
        reading: '§4.3 message kinds: incoming has only sender; outgoing has sender (ref_id = account user id, or bot id) and receiver. History: "client_id only for external participants" (§2.5: "absent for account users"): a client_id value for the manager or the bot fails; null or "" is non_strict (C9 of the review). History shows what was sent: the client with its client_id and name, a manager\'s and the bot\'s message with that sender (its id the ref_id sent, §2.5). The answers\' sender_id and receiver_id name those participants (by the id sent or the one the history shows). Needs MANAGER_USER_ID and BOT_ID.',
        covers: [SEND('Incoming from client'), SEND('Outgoing from an identifiable account user'), SEND('Outgoing from the integration bot'), SEND('receiver'), HISTORY('sender / receiver'), '2.5/ref_id'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const base = Date.now();
        const incoming = s.payload(conv, client, {}, base);
        const manager = s.payload(conv, s.manager(), { receiver: client }, base + 1000);
        const bot = s.payload(conv, s.bot(), { receiver: client }, base + 2000);
        const kinds = [['incoming', incoming], ['manager', manager], ['bot', bot]] as const;
        const answers: Awaited<ReturnType<ChatSession['sendMessage']>>[] = [];
        for (const [, p] of kinds) answers.push(await s.sendMessage(p));
        const items = await s.allHistory(conv, (i) => i.length >= 3);
        // The answer's sender_id and receiver_id name the participants sent, by either side's id: the one sent, or the
        // chat-interface id the history shows for them (and a manager's or the bot's ref_id).
        const findings: Finding[] = kinds.flatMap(([kind, p], i) => {
          const item = itemOf(items, p.msgid);
          const ids = (...xs: unknown[]) => xs.filter((x): x is string => typeof x === 'string');
          const expect = {
            msgid: p.msgid, conversationId: conv, outgoing: kind !== 'incoming',
            ...(item && { senderIds: ids(p.sender.id, p.sender.ref_id, item.sender?.id), receiverIds: ids(client.id, item.receiver?.id) }),
          };
          return t.check(answers[i]!, [status(200), newMessageAnswer(expect)]).map((f) => ({ ...f, check: `${kind}: ${f.check}` }));
        });
        const inItem = itemOf(items, incoming.msgid);
        const mgrItem = itemOf(items, manager.msgid);
        const botItem = itemOf(items, bot.msgid);
        if (!inItem || !mgrItem || !botItem) return t.outcome([...findings, fail('history', `expected the 3 messages in the history, observed ${items.length}`)]);
        findings.push(...[
          ...labelled('incoming', [senderIs(incoming.msgid, client)]),
          ...labelled('manager', [senderRefIs(manager.msgid, manager.sender.ref_id!)]),
          ...labelled('bot', [senderRefIs(bot.msgid, bot.sender.ref_id!)]),
        ].map((judge) => judge(items)));
        const problems: string[] = [];
        const emptied: string[] = [];
        if (inItem.sender?.client_id !== client.id) problems.push(`incoming sender.client_id is ${JSON.stringify(inItem.sender?.client_id)}, not ${client.id}`);
        if (inItem.receiver && Object.keys(inItem.receiver).length > 0) problems.push('the incoming message has a receiver');
        for (const [kind, item] of [['manager', mgrItem], ['bot', botItem]] as const) {
          const cid = item.sender?.client_id as unknown;
          if (cid === null || cid === '') emptied.push(`the ${kind} sender has client_id ${JSON.stringify(cid)} (absent is stated)`);
          else if (cid !== undefined) problems.push(`the ${kind} sender has client_id ${JSON.stringify(cid)} (client_id is only for external participants)`);
          if (item.receiver?.client_id !== client.id) problems.push(`the ${kind} message's receiver.client_id is ${JSON.stringify(item.receiver?.client_id)}, not the client ${client.id}`);
        }
        findings.push(problems.length > 0 ? fail('kinds in history', problems.join('; '))
          : emptied.length > 0 ? nonStrict('kinds in history', `"absent" spelt otherwise (C9 of the review): ${emptied.join('; ')}`)
            : pass('kinds in history', 'client_id on the client only, receivers on outgoing messages'));
        return t.outcome(findings);
      },
    ),
    rule(
      { id: 'chat.message.reply-same-chat', requires: ['write'], title: 'reply_to quoting a message of the same chat is accepted; one of another chat is refused with 400',
        reading: '§4.3 reply_to: the quoted message "must belong to the same chat". A quote of another chat of the same account accepted, or refused with another 4xx, is non_strict (C47): nothing foreign reaches the chat.', covers: [SEND('reply_to'), '2.11/msgid', '2.11/id'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const other = s.conversationId();
        const client = s.client();
        const here = await s.mustSend(s.payload(conv, client));
        const there = await s.mustSend(s.payload(other, client));
        const ok = await s.sendMessage(s.payload(conv, client, { reply_to: { message: { msgid: here.msgid } } }));
        const okById = here.id ? await s.sendMessage(s.payload(conv, client, { reply_to: { message: { id: here.id } } })) : ok;
        const bad = await s.sendMessage(s.payload(conv, client, { reply_to: { message: { msgid: there.msgid } } }));
        return t.outcome([
          ...t.check(ok, [status(200)]).map((f) => ({ ...f, check: `same chat by msgid: ${f.check}` })),
          ...t.check(okById, [status(200)]).map((f) => ({ ...f, check: `same chat by id: ${f.check}` })),
          ...t.check(bad, [refusalPreferred('refused'), jsonContentTypeIfRefused]).map((f) => ({ ...f, check: `another chat: ${f.check}` })),
        ]);
      },
    ),
    rule(
      { id: 'chat.limits.forwards', section: '8', requires: ['write'], title: 'One forwarded message is accepted; two are refused with 400',
        reading: '§8: forwarded messages per message: 1; §4.3 forwards.messages "at most 1 element".', covers: ['8/Forwarded messages per message', SEND('forwards')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const a = await s.mustSend(s.payload(conv, client));
        const b = await s.mustSend(s.payload(s.conversationId(), client));
        const one = await s.sendMessage(s.payload(conv, client, { forwards: { messages: [{ msgid: b.msgid }] } }));
        const two = await s.sendMessage(s.payload(conv, client, { forwards: { messages: [{ msgid: a.msgid }, { msgid: b.msgid }] } }));
        return t.outcome([
          ...t.check(one, [status(200)]).map((f) => ({ ...f, check: `1 forward: ${f.check}` })),
          ...t.check(two, refusal).map((f) => ({ ...f, check: `2 forwards: ${f.check}` })),
        ]);
      },
    ),
    rule(
      { id: 'chat.edit.text', requires: ['write'], title: 'An edit (by msgid, then by chat-interface id) changes the message in the history, which keeps it once',
        reading: '§4.3 rule 4: an edit carries message and the identifying ids; the message changes in place. docs/field-notes.md: the edit answers {"new_message":{...}}; the spec states that answer for new messages, so an edit answered 200 without new_message passes (C42), and one with it is judged like a new message\'s.', covers: [SEND('id'), SEND('msgid'), SEND('event_type')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const sent = await s.mustSend(s.payload(conv, s.client()));
        const e1 = await s.postEvent(editMessageBody({ conversation_id: conv, msgid: sent.msgid, message: { type: 'text', text: 'edited once' } }));
        const e2 = await s.postEvent(editMessageBody({ conversation_id: conv, id: sent.id, message: { type: 'text', text: 'edited twice' } }));
        const items = await s.allHistory(conv, (i) => itemOf(i, sent.msgid)?.message?.text === 'edited twice');
        const count = countByClientId(items).get(sent.msgid) ?? 0;
        const text = itemOf(items, sent.msgid)?.message?.text;
        return t.outcome([
          ...t.check(e1, [status(200), editAnswer({ msgid: sent.msgid, conversationId: conv, outgoing: false })]).map((f) => ({ ...f, check: `edit by msgid: ${f.check}` })),
          ...t.check(e2, [status(200)]).map((f) => ({ ...f, check: `edit by id: ${f.check}` })),
          count === 1 && items.length === 1 ? pass('once', 'one message') : fail('once', `expected the edited message once in a history of 1, observed it ${count} time(s) in ${items.length}`),
          text === 'edited twice' ? pass('edited text', text) : fail('edited text', `expected "edited twice", observed ${JSON.stringify(text)}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.edit.file-fields-optional', requires: ['write'], title: 'An edit of a picture may leave out media, file_name and file_size; the file is kept',
        reading: '§2.7: media, file_name and file_size are optional on edit when the file is unchanged.', covers: ['2.7/media', '2.7/file_name', '2.7/file_size'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const sent = await s.mustSend(s.payload(conv, s.client(), { message: sampleMessage('picture', 'caption') }));
        const res = await s.postEvent(editMessageBody({ conversation_id: conv, msgid: sent.msgid, message: { type: 'picture', text: 'new caption' } }));
        const items = await s.allHistory(conv, (i) => itemOf(i, sent.msgid)?.message?.text === 'new caption');
        const m = itemOf(items, sent.msgid)?.message;
        return t.outcome([
          ...t.check(res, [status(200)]),
          m?.text === 'new caption' && m.file_name === 'picture.bin' ? pass('file kept', 'caption changed, file kept') : fail('file kept', `expected text "new caption" and file_name "picture.bin", observed ${JSON.stringify(m)?.slice(0, 160)}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.import.bulk', requires: ['write', 'control'], needs: ['counters'], title: 'A bulk import (silent on all but the newest) yields one unsorted lead and one notification',
        reading: '§4.3 rule 2; an edit creates and sends neither. Counted through the control API (GET /_control/chat/unsorted and /notifications) over the whole effect window (15 s): the expected lead and notification may come late in it, a second one seen at any time in it fails (C66).', covers: [SEND('silent'), SEND('timestamp'), SEND('msec_timestamp')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const start = Date.now() - 3_600_000;
        let last = { msgid: '', id: '' };
        for (let i = 0; i < 5; i += 1) last = await s.mustSend(s.payload(conv, client, { silent: i < 4, message: sampleMessage('text', `imported ${i}`) }, start + i * 60_000));
        await s.postEvent(editMessageBody({ conversation_id: conv, msgid: last.msgid, silent: false, message: { type: 'text', text: 'imported 4, edited' } }));
        const counts = await effectCountsOver(s, conv, { leads: 1, notifications: 1 });
        const items = await s.allHistory(conv, (i) => i.length >= 5);
        return t.outcome([
          leadsAre(1)(counts),
          notificationsAre(1)(counts),
          items.length === 5 ? pass('imported', '5 messages in the history') : fail('imported', `expected the 5 imported messages in the history, observed ${items.length}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.import.source-pipeline', section: '2.6', requires: ['write', 'control'], needs: ['counters'], title: 'With a source, the first incoming message creates the unsorted lead in the pipeline of that source',
        reading: '§2.6. The source is mapped to a pipeline through the control API (POST /_control/chat/sources); the lead is awaited for the effect window (15 s, C66). A chat without source is accepted; its lead may be in any pipeline, the spec is silent (C65).', covers: ['2.6/external_id', SEND('source'), CREATE('source[external_id]')] },
      async (t) => {
        const s = await chatSession(t);
        const external = `src-${t.runId}`.slice(0, 40);
        const pipeline = 7_000_000 + Math.floor(Math.random() * 1_000_000);
        await t.control.call('POST', '/chat/sources', { account_id: s.channel.accountId, external_id: external, pipeline_id: pipeline });
        const withSource = s.conversationId();
        const without = s.conversationId();
        await s.mustSend(s.payload(withSource, s.client(), { source: { external_id: external } }));
        const noSource = await s.sendMessage(s.payload(without, s.client()));
        const a = (await leadsOnceSeen(s, withSource)).pipeline;
        return t.outcome([
          a === pipeline ? pass('source pipeline', String(a)) : fail('source pipeline', `expected the lead in pipeline ${pipeline} (the source's) within the effect window, observed ${String(a)}`),
          ...t.check(noSource, [status(200)]).map((f) => ({ ...f, check: `without source: ${f.check}` })),
        ]);
      },
    ),
    rule(
      { id: 'chat.comment.conversations', requires: ['write', 'control'], needs: ['ground-truth'], title: 'Comments go to the same chat in one conversation per post, apart from the private messages',
        reading: '§4.3 "Send a comment"; read through the control API (GET /_control/chat/conversations).', covers: ['4.3/Send a comment', '2.7/post', '2.10/id', '2.10/url'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const post = (id: string) => ({ ...sampleMessage('text', `comment on ${id}`), post: { id, url: `https://social.example/p/${id}` } });
        await s.mustSend(s.payload(conv, client));
        const answers = [];
        for (const id of ['p1', 'p1', 'p2']) {
          const p = s.payload(conv, client, { message: post(`${id}-${t.runId}`) });
          answers.push(...t.check(await s.sendMessage(p), [status(200), newMessageAnswer({ msgid: p.msgid, conversationId: conv, outgoing: false })]));
        }
        const scope = await s.scope();
        const view = await t.control.call<{ conversations: { kind: string; post_id?: string; message_count: number }[] }>('GET', `/chat/conversations?scope_id=${encodeURIComponent(scope)}&conversation_id=${encodeURIComponent(conv)}`);
        const shape = view.conversations.map((c) => `${c.kind}${c.post_id ? `:${c.post_id.split('-')[0]}` : ''}=${c.message_count}`).sort().join(', ');
        return t.outcome([...answers, shape === 'post:p1=2, post:p2=1, private=1' ? pass('conversations', shape) : fail('conversations', `expected private=1, post p1=2, post p2=1; observed ${shape}`)]);
      },
    ),

    // ---- history
    rule(
      { id: 'chat.history.empty', requires: ['write'], title: 'History answers 204 for a chat that does not exist and for a chat without messages',
        reading: '§4.3, §7: 204 when the chat does not exist or has no messages. 200 with an empty messages array is non_strict, and so is a 404 for a chat that does not exist; 200 with messages fails (C51).',
        covers: ['4.3/Get chat history'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        await chatIdOf(s, conv);
        return t.outcome([
          ...t.check(await s.history(`no-such-${s.conversationId()}`), [emptyHistory('no chat')]),
          ...t.check(await s.history(conv), [emptyHistory('no messages')]),
        ]);
      },
    ),
    rule(
      { id: 'chat.history.fields', requires: ['write'], title: 'History elements carry the stated fields with their types, per message type',
        reading: '"Empty values may be omitted": only fields the message has are required (file fields for a picture, location, contact).',
        covers: ['timestamp', 'msec_timestamp', 'message[id]', 'message[client_id]', 'message[type]', 'message[text]', 'message[media]', 'message[file_name]', 'message[file_size]', 'message[location]', 'message[contact]'].map(HISTORY) },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const sent = [];
        for (const type of ['text', 'picture', 'location', 'contact']) sent.push({ type, ...(await s.mustSend(s.payload(conv, client, { message: sampleMessage(type, type === 'text' ? 'hi' : '') }))) });
        const items = await s.allHistory(conv, (i) => i.length >= 4);
        const findings: Finding[] = [];
        for (const m of sent) {
          const item = itemOf(items, m.msgid);
          const needs: Record<string, object> = {
            text: { text: { type: 'string' } },
            picture: { media: { type: 'string' }, file_name: { type: 'string' }, file_size: { type: 'integer' } },
            location: { location: { type: 'object', required: ['lon', 'lat'] } },
            contact: { contact: { type: 'object', required: ['name', 'phone'] } },
          };
          const schema = { type: 'object', required: ['timestamp', 'msec_timestamp', 'sender', 'message'], properties: {
            timestamp: { type: 'integer' }, msec_timestamp: { type: 'integer' }, sender: { type: 'object', required: ['id'] },
            message: { type: 'object', required: ['id', 'client_id', 'type', ...Object.keys(needs[m.type]!)], properties: { id: { type: 'string' }, client_id: { const: m.msgid }, type: { const: m.type }, ...needs[m.type] } },
          } };
          findings.push(item ? matchesSchema(`${m.type} element`, schema)({ status: 200, headers: {}, text: JSON.stringify(item), durationMs: 0 }) : fail(`${m.type} element`, 'missing from the history'));
        }
        return t.outcome(findings);
      },
    ),
    rule(
      { id: 'chat.history.limit', section: '8', requires: ['write'], title: 'History limit 50 gives at most 50 messages; limit 51 is refused with 400 or capped at 50; without limit no answer holds more than 50',
        reading: '§8 "maximum 50 per request": met by a 400 or by a 200 with at most 50 messages; another 4xx for limit 51 is non_strict (C53). Fewer than 50 (but some) for limit 50 is non_strict (C52). More than 50 in one answer fails, with or without limit (C54, issue 19 §4).',
        covers: ['8/History limit', HISTORY('limit')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const base = Date.now() - 100_000;
        for (let batch = 0; batch < 52; batch += 13) {
          await Promise.all(Array.from({ length: 13 }, (_, i) => s.mustSend(s.payload(conv, client, {}, base + (batch + i) * 10))));
        }
        await s.allHistory(conv, (i) => i.length >= 52);
        const at50 = await s.history(conv, { limit: 50 });
        const at51 = await s.history(conv, { limit: 51 });
        const unlimited = await s.history(conv);
        return t.outcome([
          ...t.check(at50, [status(200)]).map((x) => ({ ...x, check: `limit 50: ${x.check}` })),
          ...t.check(at50, [pageSize('limit 50', { max: 50, asked: 50, exist: 52 })]),
          ...t.check(at51, [overLimit(50)]),
          ...t.check(unlimited, [pageSize('no limit', { max: 50, exist: 52 })]),
        ]);
      },
    ),
    rule(
      { id: 'chat.history.pages', requires: ['write'], title: 'History pages (offset, limit) join exactly: every message once, none lost',
        reading: 'offset counts records skipped from the start, limit the records per request. A page shorter than the limit while more exist (but not empty) is non_strict (C52): the reader goes on from where it ended.',
        covers: [HISTORY('offset'), HISTORY('limit')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const sent: string[] = [];
        for (let i = 0; i < 7; i += 1) sent.push((await s.mustSend(s.payload(conv, client, {}, Date.now() - 10_000 + i * 100))).msgid);
        await s.allHistory(conv, (i) => i.length >= 7);
        const first = await s.history(conv, { offset: 0, limit: 3 });
        const pages = await s.readPages(conv, 3);
        const counts = countByClientId(pages);
        const lost = sent.filter((m) => !counts.has(m));
        const twice = [...counts].filter(([, n]) => n > 1).map(([m]) => m);
        return t.outcome([
          ...t.check(first, [pageSize('first page', { max: 3, asked: 3, exist: 7 })]),
          lost.length === 0 && twice.length === 0 && pages.length === 7 ? pass('pages', '7 messages over pages of 3') : fail('pages', `pages of 3 gave ${pages.length} items; lost ${lost.length}, repeated ${twice.length}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.history.by-chat-id', level: 'info', requires: ['write'], title: 'Whether history also answers for the chat-interface chat id in the path',
        reading: 'The spec names the integration-side conversation_id; public clients put the chat-interface chat id there (docs/field-notes.md). Reported, not judged.', covers: ['4.3/Get chat history'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const id = await chatIdOf(s, conv, client);
        await s.mustSend(s.payload(conv, client));
        const res = await s.history(id);
        const n = (arrayAt(res, 'messages') ?? []).length;
        return t.outcome([observed('chat id in the path', `answered ${res.status}${res.status === 200 ? ` with ${n} message(s)` : ''}`)]);
      },
    ),
    rule(
      { id: 'chat.history.media-group', level: 'info', requires: ['write'], title: 'Whether history elements of media messages carry media_group_id',
        reading: 'media_group_id joins the parts of a message split into several attachments; the API has no way to send several attachments in one message, so this only records whether the field appears.', covers: [HISTORY('message[media_group_id]'), HISTORY('message[thumbnail]')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const sent = await s.mustSend(s.payload(conv, s.client(), { message: sampleMessage('picture') }));
        const m = itemOf(await s.allHistory(conv, (i) => i.length >= 1), sent.msgid)?.message;
        return t.outcome([observed('media_group_id', `${m?.media_group_id === undefined ? 'absent' : `present (${String(m.media_group_id)})`}; thumbnail ${m?.thumbnail === undefined ? 'absent' : 'present'}`)]);
      },
    ),

    // ---- typing
    rule(
      { id: 'chat.typing.accepted', requires: [], title: 'Typing answers 204 with and without duration_ms (default 5000 ms)',
        reading: 'duration_ms is optional with a default of 5000 ms (§8); 200 instead of 204 is non_strict.', covers: ['4.3/Typing indicator', '8/Typing duration default'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        await s.mustSend(s.payload(conv, client));
        return t.outcome([
          ...t.check(await s.typing({ conversation_id: conv, sender: { id: client.id } }), [status(204)]).map((f) => ({ ...f, check: `without duration_ms: ${f.check}` })),
          ...t.check(await s.typing({ conversation_id: conv, duration_ms: 3000, sender: { id: client.id } }), [status(204)]).map((f) => ({ ...f, check: `with duration_ms: ${f.check}` })),
        ]);
      },
    ),
    rule(
      { id: 'chat.typing.invalid', requires: [], title: 'Typing without conversation_id or sender.id, or with duration_ms not an integer, is refused with 400',
        reading: 'The typing body names conversation_id and sender[id] unmarked beside the optional duration_ms: missing and accepted is non_strict (unmarked-member); a value of another JSON type ("5000") coerced and accepted is non_strict (wrong-type).',
        covers: ['4.3/Typing indicator'] },
      async (t) => {
        const s = await chatSession(t);
        const valid = { conversation_id: 'c', duration_ms: 1000, sender: { id: 'u' } };
        const fields: FieldSpec[] = [{ path: ['conversation_id'], type: 'string', unmarked: true }, { path: ['sender'], type: 'object', unmarked: true }, { path: ['sender', 'id'], type: 'string', unmarked: true }];
        const named = [...sweepCases(fields), ...[{ path: ['duration_ms'], type: 'int' as const, breakage: 'wrong-type' as const, wrongType: 'a string', value: '5000' }]];
        return sweepThenProperty(t, { named: named, cases: fieldCaseArb(fields), check: async (c) => t.check(await s.typing(applyCase(valid, c)), refusalChecks(caseReading(c))).map((f) => ({ ...f, detail: `${describeCase(c)}: ${f.detail}` })) });
      },
    ),

    // ---- reactions
    rule(
      { id: 'chat.react.accepted', requires: ['write'], title: 'react and unreact answer 200, naming the message by msgid or by id and the chat by conversation_id or conversation_ref_id',
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
      { id: 'chat.react.invalid', requires: ['write'], title: 'A reaction without any message id, without any conversation id, without user.id or with another type is refused with 400',
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
      { id: 'chat.react.unknown-message', requires: ['write'], title: 'A reaction to a message that does not exist answers 404', covers: [REACT('msgid'), '4.3/Reaction'] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        await s.mustSend(s.payload(conv, client));
        return t.outcome(t.check(await s.react({ conversation_id: conv, msgid: `no-such-${t.runId}`, user: { id: client.id }, type: 'react', emoji: '👍' }), [status(404), jsonContentType]));
      },
    ),

    // ---- robustness
    sweepRule<unknown>(
      { id: 'chat.message.no-server-error', level: 'should', requires: [], title: 'Arbitrary JSON at the message endpoint, correctly signed, never causes a 5xx',
        covers: [SEND('payload'), SEND('message')] },
      {
        named: ODD_MESSAGE_EVENTS,
        cases: () => oddMessageEvent,
        send: async (t, body) => (await chatSession(t)).postEvent(body),
        expect: [noServerError],
        label: (body) => JSON.stringify(body).slice(0, 60),
      },
    ),
  ],
});


