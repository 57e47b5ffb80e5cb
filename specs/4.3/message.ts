/**
 * §4.3 Chat interface: Send, edit or import a message.
 *
 * §4.3 as a whole: a model-based property (random sequences of create chat / send / edit / import / delivery status /
 * reaction / history against a model; the history always matches it), the order the target uses, and concurrency
 * (parallel messages to one conversation each appear once).
 *
 * §4.3 "Send, edit or import a message", edits and identity: sender and receiver are ignored on edit (the history keeps
 * the original participants), and a msgid sent together with id on edit becomes the message's integration-side id.
 *
 * §4.3 payload fields sent and checked one by one: silent is a bool; receiver is a participant (§2.5) with id and name
 * strings; an incoming message from a client has no receiver (message kinds), so a client-sent message that names
 * one matches no kind. Each case breaks one thing of a message that is otherwise accepted.
 *
 * §4.3 validation per route: the fields each chat endpoint's table requires (create chat's conversation_id and
 * source, reply_to.message, forwards.messages and the forwarded embedded messages, event_type), each sent broken and
 * refused with 400; the optional react emoji left out and accepted; and disconnect's answer, 200 with no body.
 *
 * §4.3 edits and message identity, beyond sender and receiver: reply_to, forwards and source
 * are ignored on edit; an edit naming no message of its conversation is refused; and what a repeated msgid on
 * new_message gets is recorded. Each rule works in conversations of its own, the client's messages reading
 * `message <n>` (src/steps/chat-conversation.ts).
 *
 * §4.3 payload conversation_ref_id: the chat-interface id of a chat of this integration's connection (the write-first
 * case). One naming a chat of a second account's scope, or no chat at all, must not link the message anywhere.
 *
 * §4.3 under concurrency, beyond chat creation and distinct messages (create-chat.ts, history.ts):
 * parallel connects of one channel for one account, one msgid sent again and again at once, and parallel edits of one
 * message. Each race sends RACERS requests at once through the kit's client and needs nothing but the chat channel,
 * so it runs on a staging account.
 *
 * §4.3 forwards.conversation_ref_id names a chat that belongs to the integration (a made-up id, or a chat of a second
 * account, is refused; one of the integration's own chats is accepted), and rule 3: an imported bot message sends no
 * outgoing-message hook. The forward rules quote a message of another conversation of the same client, so that the
 * conversation_ref_id is the only thing that can make the forward refused.
 */
import {
  absentFromHistory, applyCase, type Conversation, messageTruth, nothingResolvedFrom, caseReading, chatSession, ChatSession, chatSweepRule, clientError, conversationWith, defineGroup, describeCase, type DuplicateSeen, eachAcceptedOrLimited, eachStep, editMessageBody, type EffectCounts, effectCountsOver, equals, exchangeRule, type FieldCase, fieldCaseArb, firstNotifications, foreignChat, foreignHistory, forwardNaming, heldOnce, historyHolds, type HistoryItem, holdsMessages, hooksAfterAccountMessage, hooksWithText, type HttpResponse, importedBotMessage, isSuccess, jsonContentType, jsonContentTypeIfRefused, keptAsNotes, kindsTold, labelled, leadsAre, type MessagePayload, newMessageAnswer, noServerError, notificationsAre, observedDuplicate, observedTextChange, ODD_MESSAGE_EVENTS, oddMessageEvent, participantShown, RACERS, recorded, refusalChecks, refusalPreferred, repeatMsgid, repeatsAnswered, type RepeatSeen, sameHistoryAs, scenarioRule, senderIs, senderRefIs, someHooks, status, step, sweepCases, sweepRule, textIs, uniqueId, valueField, valueIs, writeFirst,
} from '../kit.js';
import {
  type AnswerTarget, answerTarget, type BrokenMember, brokenRule, type BulkImport, bulkImport, FORWARDED_FIELDS, type Forwarding, forwarding, type ForwardingForeign, type ForeignForward, foreignForward, fullEmbedded, type Import, type KindsConversation, type KindSent, kindsSent, memberRefusalOf, naming, type ParallelMessages, parallelMessages, type Quoting, quoting, RECEIVER, type Repeats, replyQuoting, type Sent, sentMessage, SILENT, type WithForeign, type WriteFirst,
} from './support.js';
import { refusal, messageEvent, requiredRule, P, type EffectsConversation, newConversation, sendSilent, counted, SEND, HISTORY } from '../fixtures/chat.js';

/**
 * The steps that send, under the first account's scope, a message embedding the second account's message by its ids
 * (a forward, or a reply_to quote), then read what was stored of it and the second account's chat.
 */
function foreignEmbedSteps(what: 'forward' | 'quote') {
  return [
    step<ForeignForward>(`${what === 'forward' ? 'forwarding' : 'quoting'} the second account's message by its ids`, async (_t, f) => {
      const named = { id: f.there.id, msgid: f.there.msgid };
      const p = f.s.payload(f.conv, f.client, what === 'forward' ? { forwards: { messages: [named] } } : { reply_to: { message: named } });
      f.forwarded = p.msgid;
      const res = await f.s.sendMessage(p);
      f.forwardStatus = res.status;
      return res;
    }, [refusalPreferred('another account\'s message refused'), jsonContentTypeIfRefused]),
    step<ForeignForward, { readonly text?: string } | 'unseen' | undefined>(`what the ${what} stored`, async (t, f) => {
      if (!isSuccess(f.forwardStatus)) return undefined;
      if (!t.target.controlUrl) return 'unseen';
      const truth = await messageTruth(f.s, f.conv, f.forwarded);
      return (what === 'forward' ? truth.forwards?.[0] : truth.reply_to?.message) ?? undefined;
    },
      (_t, f) => [nothingResolvedFrom(f.there.text, what)]),
    step<ForeignForward, HistoryItem[]>('the second account\'s chat', (_t, f) => f.b.allHistory(f.bConv, (items) => items.length >= 1),
      (_t, f) => [historyHolds('unchanged', { once: [f.there.msgid], none: [f.forwarded] }), holdsMessages(1)]),
  ];
}

export default defineGroup({
  heading: 'Send, edit or import a message',
  rules: [
    // §4.3 the message event itself
    requiredRule(
      { id: 'chat.message-event.required', title: 'A message event without event_type, payload, timestamps, conversation_id, msgid or message, or with one of another type, is refused with 400',
        reading: 'The §4.3 body table gives payload as the event\'s object (without it there is no message: missing and accepted fails, R2-C10) and event_type as "`new_message` or `edit_message`" without Required, as its siblings of the payload table are unmarked: a body without event_type taken (as new_message) is non_strict (unmarked-member, R3-C2), and the case is sent to the message route. The payload table marks optional fields as such and leaves timestamp, msec_timestamp, conversation_id, msgid and sender unmarked (unmarked-member: missing and accepted is non_strict); message is "Required"; a value of another JSON type accepted is non_strict (wrong-type); any event_type outside new_message/edit_message accepted fails (enumeration: "", "NEW_MESSAGE", a number alike, R2-C12).',
        covers: ['event_type', 'payload', 'timestamp', 'msec_timestamp', 'conversation_id', 'msgid', 'message', 'silent'].map((k) => `4.3/Send, edit or import a message/${k}`) },
      (s) => messageEvent(s),
      [
        { path: P('event_type'), type: 'enum', values: ['new_message', 'edit_message'], unmarked: true }, { path: P('payload'), type: 'object' }, { path: P('payload', 'timestamp'), type: 'int', unmarked: true },
        { path: P('payload', 'msec_timestamp'), type: 'int', unmarked: true }, { path: P('payload', 'conversation_id'), type: 'string', unmarked: true }, { path: P('payload', 'msgid'), type: 'string', unmarked: true },
      ],
    ),
    scenarioRule<EffectsConversation>(
      { id: 'chat.unsorted.silent-first', needs: ['counters'],
        title: 'A silent first message creates no unsorted lead and no notification; the next non-silent one creates the lead and one notification',
        reading: '§4.3 payload table: silent suppresses unsorted-lead creation and notification; rule 2: an import silent on all but the newest yields one lead and one notification.',
        covers: ['4.3/Send, edit or import a message/silent'] },
      {
        setup: newConversation,
        steps: [
          step('silent first message', sendSilent(true), [status(200)]),
          step('after the silent one', async (_t, f) => effectCountsOver(f.s, f.conv, { leads: 0, notifications: 0 }), [leadsAre(0), notificationsAre(0)]),
          step('non-silent message', sendSilent(false), [status(200)]),
          step('after the non-silent one', counted(1, 0), [leadsAre(1), firstNotifications]),
        ],
      },
    ),
    // ---- messages
    exchangeRule<HttpResponse, AnswerTarget>(
      { id: 'chat.message.answer', title: 'A new message answers 200 with new_message {conversation_id, sender_id, receiver_id, msgid, ref_id = msgid sent}',
        reading: 'docs/field-notes.md: new and edited messages answer {"new_message":{...}}; receiver_id is null (or absent) for an incoming message. The optional payload fields (conversation_ref_id, source, receiver, reply_to, forwards) are omitted. The ids name what was sent: conversation_id ("Dialog id", neither side stated) is the conversation_id sent or the chat id create chat answered, not the chat created after it; sender_id ("Sender id", no side named) is any id of the sender, not the chat\'s (R2-C9); msgid missing fails, as the chat-interface id is the integration\'s one handle on the message (R2-C7); receiver_id "" for an incoming message is non_strict (R2-C8).',
        covers: ['conversation_ref_id', 'new_message[conversation_id]', 'new_message[sender_id]', 'new_message[receiver_id]', 'new_message[msgid]', 'new_message[ref_id]', 'event_type', 'payload', 'timestamp', 'msec_timestamp', 'conversation_id', 'sender', 'msgid', 'message', 'silent'].map(SEND) },
      {
        setup: answerTarget,
        send: (_t, f) => f.s.sendMessage(f.payload),
        expect: (_t, f) => [status(200), jsonContentType, newMessageAnswer({ msgid: f.payload.msgid, conversationId: f.payload.conversation_id, outgoing: false, chatId: f.chatId, senderIds: f.senderIds })],
      },
    ),
    scenarioRule<KindsConversation>(
      { id: 'chat.message.kinds', title: 'Incoming, manager and bot messages are accepted and the history tells them apart (client_id only for the client)',
        reading: '§4.3 message kinds: incoming has only sender; outgoing has sender (ref_id = account user id, or bot id) and receiver. History: "client_id only for external participants" (§2.5: "absent for account users"): a client_id value for the manager or the bot fails; null or "" is non_strict (C9 of the review). History shows what was sent: the client with its client_id and name, a manager\'s and the bot\'s message with that sender (its id the ref_id sent, §2.5). The client is given an avatar, a phone and an email: the history\'s sender of its message and receiver of the others show them (answer-member: an avatar re-hosted passes; a member missing, null or "" for nothing given, or a phone otherwise spelt is non_strict, C6–C8); the manager and the bot show no phone or email ("Profile … only for external participants"), their avatar is the account\'s and not judged. The answers\' sender_id and receiver_id name those participants (by the id sent or the one the history shows). Needs MANAGER_USER_ID and BOT_ID.',
        covers: [SEND('Incoming from client'), SEND('Outgoing from an identifiable account user'), SEND('Outgoing from the integration bot'), SEND('receiver'), HISTORY('sender / receiver'), '2.5/ref_id'] },
      {
        setup: kindsSent,
        steps: [
          eachStep<KindsConversation, KindSent>({
            items: (_t, f) => f.kinds,
            label: (k) => k.kind,
            observe: async (_t, _f, k) => k.answer,
            expect: (k) => [status(200), newMessageAnswer(k.expect)],
          }),
          step<KindsConversation, HistoryItem[]>('', async (_t, f) => [...f.items], (_t, { client, sent }) => [
            ...labelled('incoming', [senderIs(sent.incoming.msgid, client), participantShown(sent.incoming.msgid, 'sender', client)]),
            ...labelled('manager', [senderRefIs(sent.manager.msgid, sent.manager.sender.ref_id!), participantShown(sent.manager.msgid, 'sender', sent.manager.sender, ['phone', 'email']), participantShown(sent.manager.msgid, 'receiver', client)]),
            ...labelled('bot', [senderRefIs(sent.bot.msgid, sent.bot.sender.ref_id!), participantShown(sent.bot.msgid, 'sender', sent.bot.sender, ['phone', 'email']), participantShown(sent.bot.msgid, 'receiver', client)]),
            kindsTold({ clientId: client.id, incoming: sent.incoming.msgid, manager: sent.manager.msgid, bot: sent.bot.msgid }),
          ]),
        ],
      },
    ),
    scenarioRule<Quoting>(
      { id: 'chat.message.reply-same-chat', title: 'reply_to quoting a message of the same chat is accepted; one of another chat is refused with 400',
        reading: '§4.3 reply_to: the quoted message "must belong to the same chat". A quote of another chat of the same account accepted, or refused with another 4xx, is non_strict (C47): nothing foreign reaches the chat.', covers: [SEND('reply_to'), '2.11/msgid', '2.11/id'] },
      {
        setup: quoting,
        steps: [
          step<Quoting>('same chat by msgid', async (_t, f) => (f.byMsgid = await replyQuoting(f, { msgid: f.here.msgid })), [status(200)]),
          step<Quoting>('same chat by id', async (_t, f) => (f.here.id ? replyQuoting(f, { id: f.here.id }) : f.byMsgid!), [status(200)]),
          step<Quoting>('another chat', (_t, f) => replyQuoting(f, { msgid: f.there.msgid }), [refusalPreferred('refused'), jsonContentTypeIfRefused]),
        ],
      },
    ),
    scenarioRule<BulkImport>(
      { id: 'chat.import.bulk', requires: ['write', 'control'], needs: ['counters'], title: 'A bulk import (silent on all but the newest) yields one unsorted lead and one notification',
        reading: '§4.3 rule 2; an edit creates and sends neither. Counted through the control API (GET /_control/chat/unsorted and /notifications) over the whole effect window (15 s): the expected lead and notification may come late in it, a second one seen at any time in it fails (C66).', covers: [SEND('silent'), SEND('timestamp'), SEND('msec_timestamp')] },
      {
        setup: bulkImport,
        steps: [
          step<BulkImport>('', (_t, f) => f.s.postEvent(editMessageBody({ conversation_id: f.conv, msgid: f.last, silent: false, message: { type: 'text', text: 'imported 4, edited' } })), []),
          step<BulkImport, EffectCounts>('', (_t, f) => effectCountsOver(f.s, f.conv, { leads: 1, notifications: 1 }), [leadsAre(1), notificationsAre(1)]),
          step<BulkImport, HistoryItem[]>('', (_t, f) => f.s.allHistory(f.conv, (i) => i.length >= 5), [valueField('length', equals(5), 'imported')]),
        ],
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
    scenarioRule<ParallelMessages>(
      { id: 'chat.concurrency.messages', title: '16 messages sent in parallel to one conversation each appear in the history exactly once',
        reading: 'Rule 1 of §4.3: the message is created for its msgid and conversation_id, also when others arrive at the same time. Each is answered 200; another 2xx, or a 429 (rate limits are not shown, §8), is non_strict (R2-C17), and a message refused with 429 need not be in the history.', covers: [SEND('msgid'), SEND('conversation_id')] },
      {
        setup: (t) => parallelMessages(t, 16),
        steps: [
          step<ParallelMessages, readonly HttpResponse[]>('accepted', async (_t, f) => (f.answers = await Promise.all(f.payloads.map((p) => f.s.sendMessage(p)))), [eachAcceptedOrLimited(200)]),
          step<ParallelMessages, HistoryItem[]>('', (_t, f) => f.s.allHistory(f.conv), (_t, f) => [
            historyHolds('each accepted once', { once: f.payloads.filter((_p, i) => f.answers?.[i]?.status !== 429).map((p) => p.msgid), none: [] }),
          ]),
        ],
      },
    ),
    exchangeRule<{ readonly status: number; readonly before: string | undefined; readonly after: string | undefined }, Sent>(
      { id: 'chat.message.id-on-new', level: 'info', title: 'What a new_message carrying the id of an existing message gets, and whether that message changes',
        reading: '§4.3: id is "only for edit"; what a new_message carrying one gets is not stated. Reported, not judged.',
        covers: [SEND('id')] },
      {
        setup: sentMessage,
        send: async (_t, f) => {
          const res = await f.s.sendMessage(f.s.payload(f.conv, f.client, { id: f.id, message: { type: 'text', text: 'a new message naming an old id' } }));
          const items = await f.s.readPages(f.conv);
          return { status: res.status, before: 'hello', after: items.find((i) => i.message?.client_id === f.msgid)?.message?.text };
        },
        expect: [observedTextChange('new_message with an existing id')],
      },
    ),
    brokenRule({ id: 'chat.message.silent-type', title: 'A message whose silent is a string or a number is refused with 400',
      reading: '§4.3 payload table: silent is a bool; 400 when data is invalid. A string "true" is not a bool; coerced and accepted it is non_strict (wrong-type).', covers: [SEND('silent')] }, SILENT),
    brokenRule({ id: 'chat.message.receiver-invalid', title: 'An outgoing message whose receiver lacks id or name, or has either as a number, is refused with 400',
      reading: '§4.3: receiver is a participant (§2.5): id and name, strings, required. The sender is an account user (MANAGER_USER_ID), so only the receiver is wrong. A missing id or name accepted fails (required-member); a number or a string for an object, coerced and accepted, is non_strict (wrong-type).', covers: [SEND('receiver'), '2.5/id', '2.5/name'] }, RECEIVER),
    chatSweepRule<BrokenMember>(
      { id: 'chat.reply-to.message-required', title: 'A reply_to without message, or whose message is not an object, is refused with 400',
        reading: '§4.3 payload table: reply_to carries `message` (required, an embedded message of §2.11).',
        covers: [SEND('reply_to')] },
      {
        connect: true,
        named: [
          // "message (required …)": a value that is no embedded message leaves it missing (R2-C11), not merely of another type.
          { what: 'an empty reply_to', value: {} }, { what: 'message null', value: { message: null } },
          { what: 'message a string', value: { message: 'quoted' } }, { what: 'message an array', value: { message: [fullEmbedded()] } },
          { what: 'the quote beside message', value: { msg: fullEmbedded() } },
        ],
        send: (s, c) => s.postEvent(messageEvent(s, { reply_to: c.value as MessagePayload['reply_to'] })),
        expect: memberRefusalOf,
        label: (c) => c.what,
      },
    ),
    chatSweepRule<BrokenMember>(
      { id: 'chat.forwards.messages-required', title: 'A forwards without messages, or whose messages is not an array, is refused with 400',
        reading: '§4.3 payload table: forwards carries `messages` (a required array of embedded messages).',
        covers: [SEND('forwards')] },
      {
        connect: true,
        named: [
          // "messages (required array …)": a value that is no array leaves it missing (R2-C11), not merely of another type.
          { what: 'an empty forwards', value: {} }, { what: 'messages an object', value: { messages: {} } },
          { what: 'messages null', value: { messages: null } }, { what: 'messages one embedded message, not in an array', value: { messages: fullEmbedded() } },
          { what: 'only conversation_id', value: { conversation_id: 'elsewhere' } },
        ],
        send: (s, c) => s.postEvent(messageEvent(s, { forwards: c.value as MessagePayload['forwards'] })),
        expect: memberRefusalOf,
        label: (c) => c.what,
      },
    ),
    chatSweepRule<FieldCase>(
      { id: 'chat.forwards.embedded-required', title: 'A forwarded message given without id or msgid must carry type, text (for text), timestamp, msec_timestamp and sender with name; else 400',
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
      { id: 'chat.message-event.unknown-type', title: 'A message event whose event_type is neither new_message nor edit_message (typing, react, delete_message, another spelling) is refused with 400',
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
    exchangeRule<DuplicateSeen, ChatSession>(
      { id: 'chat.message.duplicate-msgid', level: 'info', title: 'What two new_message events with one msgid (different texts) get, and what the history then holds',
        reading: '§4.3 rule 1: a message is created "for the given msgid"; whether a second new_message with it is refused, ignored or taken as a new message is not stated. Reported, not judged.',
        covers: [SEND('msgid')] },
      {
        setup: (t) => chatSession(t),
        send: async (_t, s) => {
          const conv = s.conversationId();
          const client = s.client();
          const first = s.payload(conv, client, { message: { type: 'text', text: 'first text' } });
          const a = await s.sendMessage(first);
          const b = await s.sendMessage({ ...first, message: { type: 'text', text: 'second text' } });
          const items = await s.allHistory(conv, (i) => i.length >= 1);
          return { first: a.status, second: b.status, msgid: first.msgid, texts: ['first text', 'second text'], items };
        },
        expect: [observedDuplicate],
      },
    ),
    scenarioRule<WriteFirst>(
      { id: 'chat.message.conversation-ref-id-write-first', requires: ['write', 'control'],
        title: 'A client\'s reply naming a write-first chat by conversation_ref_id continues that chat: its history holds the account\'s message and the reply',
        reading: '§4.3: conversation_ref_id "must be sent when a client replies to a message sent through the write-first option, so the two chats are linked". The write-first chat is started through the control API (POST /_control/chat/write-first); the reply carries a new conversation_id, under which the history then shows both messages. The reply\'s 200 is judged; whether the chats are linked is recorded (C46: only the account shows it).',
        covers: ['4.3/Send, edit or import a message/conversation_ref_id', '4.3/Send, edit or import a message/conversation_id'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, chatId: await writeFirst(s, 'written first by the account'), conv: s.conversationId(), reply: s.msgid() };
        },
        steps: [
          step('the client\'s reply', (_t, w) => w.s.sendMessage({ ...w.s.payload(w.conv, w.s.client('Replying Client'), { conversation_ref_id: w.chatId, message: { type: 'text', text: 'the client replies' } }), msgid: w.reply }), [status(200)]),
          step('history under the reply\'s conversation_id', (_t, w) => w.s.allHistory(w.conv, (items) => items.length >= 2), (_t, w) => keptAsNotes([
            holdsMessages(2), heldOnce(w.reply), textIs(w.reply, 'the client replies'),
          ])),
        ],
      },
    ),
    scenarioRule<WithForeign>(
      { id: 'chat.message.conversation-ref-id-foreign', needs: ['second-account'],
        title: 'A message whose conversation_ref_id is the chat id of a second account\'s scope, or names no chat, is refused (4xx); the foreign chat stays without messages',
        reading: '§4.3: conversation_ref_id is the chat-interface id of a chat the client replies in (write-first, same integration and connection); a chat of another account\'s scope is not one the message may link to: changing another account\'s chat breaches §2.4 (a scope is one account\'s connection), a must (issue 39). Any 4xx passes. A conversation_ref_id that names no chat accepted is non_strict (the member is optional and links nothing). The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: ['4.3/Send, edit or import a message/conversation_ref_id'] },
      {
        setup: async (t) => {
          const c = await conversationWith(t, 1);
          return { ...c, foreign: await foreignChat(c.s) };
        },
        steps: [
          step('naming the second account\'s chat', (_t, c) => naming(c, c.foreign.chatId, 'linked to a foreign chat?'), [clientError()]),
          step('the foreign chat\'s history', (_t, c) => foreignHistory(c.s, c.foreign), [status(204)]),
          step('naming no chat', (_t, c) => naming(c, uniqueId(c.s.t, 'no-such-chat'), 'linked to nothing?'), [clientError('refused', { accepted: 'non_strict' })]),
        ],
      },
    ),
    scenarioRule<Repeats>(
      { id: 'chat.concurrency.same-msgid', level: 'info', title: `One msgid sent ${RACERS} times at once leaves the history that ${RACERS} sends of it one after the other leave`,
        reading: `§4.3 rule 1 creates a message "for the given msgid"; what a repeated msgid gets is not stated (chat.message.duplicate-msgid records it). Whatever the target does with it in sequence, it must do under concurrency too: a client retrying on a timeout sends the same msgid again before the first answer. Each run sends one body ${RACERS} times to a chat of its own (created first, so only the msgid races) and compares how many elements each history holds under the msgid and in all. Racing answers may be 200 or a 4xx. An open point (C45): what racing repeats leave is recorded, beside what sequential ones leave.`,
        covers: [SEND('msgid')] },
      {
        setup: async (t) => ({ s: await chatSession(t) }),
        steps: [
          step<Repeats, RepeatSeen>('', async (_t, r) => (r.sequential = await repeatMsgid(r.s, 'in sequence')), []),
          step<Repeats, RepeatSeen>(`${RACERS} at once`, (_t, r) => repeatMsgid(r.s, 'in parallel', r.sequential!.held), (_t, r) => [
            ...recorded([repeatsAnswered, sameHistoryAs(r.sequential!)]),
          ]),
        ],
      },
    ),
    scenarioRule<Forwarding>(
      { id: 'chat.forwards.ref-id-unknown', title: 'A forward whose conversation_ref_id names one of the integration\'s chats is accepted; one naming no chat (a made-up id) is refused with 400 and stored nowhere',
        reading: '§4.3 forwards: optional conversation_ref_id, "the chat must belong to the integration"; a made-up id names no chat at all. The spec\'s code for invalid data is 400; another 4xx, or the forward accepted with nothing foreign in it (the forwarded message is the client\'s own), is non_strict (C48). The accepted forward names the chat-interface id (create chat\'s id) of the conversation the forwarded message comes from.',
        covers: [SEND('forwards')] },
      {
        setup: forwarding,
        steps: [
          step<Forwarding>('naming its own chat', (_t, f) => {
            const p = forwardNaming(f, f.from, f.from.chatId, 'forwarded from my own chat');
            f.accepted = p.msgid;
            return f.s.sendMessage(p);
          }, [status(200)]),
          step<Forwarding>('naming a made-up chat', async (_t, f) => {
            const p = forwardNaming(f, f.from, uniqueId(f.s.t, 'no-such-chat'), 'forwarded from nowhere');
            f.refused = p.msgid;
            const res = await f.s.sendMessage(p);
            f.refusedStatus = res.status;
            return res;
          }, [refusalPreferred('a made-up chat refused'), jsonContentTypeIfRefused]),
          step<Forwarding, HistoryItem[]>('history', (_t, f) => f.s.allHistory(f.conv, (items) => items.length >= 2), (_t, f) => [
            heldOnce(f.accepted), ...(isSuccess(f.refusedStatus) ? [] : [absentFromHistory(f.refused)]),
          ]),
        ],
      },
    ),
    scenarioRule<ForwardingForeign>(
      { id: 'chat.forwards.ref-id-other-account', needs: ['second-account'],
        title: 'A forward whose conversation_ref_id is a chat of a second account is refused with 400; neither conversation changes',
        reading: '§4.3 forwards: conversation_ref_id names a chat that "must belong to the integration"; a chat of another account\'s connection is not one a message sent under this scope_id may name (§2.4: a scope is one account\'s connection). 400 is the spec\'s code for invalid data; another 4xx, or the forward accepted with nothing foreign in it (the forwarded message is the client\'s own), is non_strict (C48), and the second account\'s chat must stay without messages. A forward naming the client\'s own chat is accepted first. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('forwards'), '2.4/scope_id'] },
      {
        setup: async (t) => {
          const f = await forwarding(t);
          return { ...f, foreign: await foreignChat(f.s) };
        },
        steps: [
          step<ForwardingForeign>('naming its own chat', (_t, f) => f.s.sendMessage(forwardNaming(f, f.from, f.from.chatId, 'forwarded from my own chat')), [status(200)]),
          step<ForwardingForeign>('naming the second account\'s chat', async (_t, f) => {
            const p = forwardNaming(f, f.from, f.foreign.chatId, 'forwarded from another account');
            f.refused = p.msgid;
            const res = await f.s.sendMessage(p);
            f.refusedStatus = res.status;
            return res;
          }, [refusalPreferred('another account\'s chat refused'), jsonContentTypeIfRefused]),
          step<ForwardingForeign, HistoryItem[]>('history', (_t, f) => f.s.allHistory(f.conv), (_t, f) => (isSuccess(f.refusedStatus) ? [] : [absentFromHistory(f.refused)])),
          step('the second account\'s chat', (_t, f) => foreignHistory(f.s, f.foreign), [status(204)]),
        ],
      },
    ),
    scenarioRule<Conversation & { forwarded: string }>(
      { id: 'chat.forwards.foreign-message',
        title: 'A forwarded message given by its fields, from an external chat the chat interface never held, is accepted and the message shows in the history',
        reading: '§4.3 forwards: "Forwarded messages may come from any external chat of the integration"; §2.11: type, text, timestamps and sender are required "when no id is given", so a message the chat interface never saw is forwarded by its fields (with the conversation_id of the chat it comes from). A refusal fails (issue 28 item 4: a valid shape, named on every run).',
        covers: [SEND('forwards'), '2.11/type', '2.11/text'] },
      {
        setup: async (t) => ({ ...await conversationWith(t, 1), forwarded: '' }),
        steps: [
          step('a message of another messenger chat, by its fields', (_t, f) => {
            const p = f.s.payload(f.conv, f.client, { forwards: { messages: [{ ...fullEmbedded(), text: 'forwarded from a chat the chat interface never held' }], conversation_id: uniqueId(f.s.t, 'external-chat') } });
            f.forwarded = p.msgid;
            return f.s.sendMessage(p);
          }, [status(200)]),
          step('history', (_t, f) => f.s.allHistory(f.conv, (items) => items.length >= 2), (_t, f) => [heldOnce(f.forwarded)]),
        ],
      },
    ),
    scenarioRule<ForeignForward>(
      { id: 'chat.forwards.other-account-message', requires: ['write'], needs: ['second-account'],
        title: 'A forward naming, by its ids, a message of a second account\'s chat is refused with 400, or taken with nothing of that message in it; the second account\'s chat is unchanged',
        reading: '§2.4: scope_id identifies the connection for one account, so ids sent under it name that account\'s messages; §2.11 "If given, the remaining fields are resolved automatically" would copy another account\'s message into this one. Read as forwards.conversation_ref_id of another account is (C48): 400 passes, another 4xx or an acceptance with nothing of the other message resolved is non_strict ("any external chat of the integration"), its text resolved into the forward (read through the control API; without one a taken forward\'s content is recorded as unseen) fails (security), as does any change to the second account\'s chat. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('forwards'), '2.4/scope_id', '2.11/id', '2.11/msgid'] },
      {
        setup: foreignForward,
        steps: foreignEmbedSteps('forward'),
      },
    ),
    scenarioRule<ForeignForward>(
      { id: 'chat.reply-to.other-account-message', requires: ['write'], needs: ['second-account'],
        title: 'A reply_to quoting, by its ids, a message of a second account\'s chat is refused with 400, or taken with nothing of that message in it; the second account\'s chat is unchanged',
        reading: '§4.3 reply_to: the quoted message "must belong to the same chat"; §2.4: scope_id identifies the connection for one account, so ids sent under it name that account\'s messages. Read as a quote of another chat is (C47) and a forward of another account\'s message (chat.forwards.other-account-message): 400 passes, another 4xx or an acceptance with nothing of the other message resolved is non_strict; its text resolved into the quote (read through the control API; without one a taken quote\'s content is recorded as unseen) fails (security), as does any change to the second account\'s chat. The second account comes from the control API, else CHAT_ACCOUNT_ID_2.',
        covers: [SEND('reply_to'), '2.4/scope_id', '2.11/id', '2.11/msgid'] },
      {
        setup: foreignForward,
        steps: foreignEmbedSteps('quote'),
      },
    ),
    scenarioRule<Import>(
      { id: 'chat.import.bot-no-hooks', requires: ['write', 'control'], needs: ['counters'],
        title: 'An imported bot message (silent, sender.ref_id the bot id, receiver the client) is stored and sends no outgoing-message hook',
        reading: '§4.3 rule 3: "Hooks are not sent for imported bot messages"; rule 2: an import is sent with silent true. The hooks are counted per conversation through the control API (GET /_control/chat/hooks), as chat.connection.hooks-stop counts them: a manager\'s message from the account first shows that hooks of the conversation are counted (one or more: a retried hook is allowed, R2-C4); then no hook carrying the imported message\'s text may come within the hook window.',
        covers: [SEND('silent'), SEND('sender'), SEND('receiver')] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          const conv = s.conversationId();
          const client = s.client();
          await s.mustSend(s.payload(conv, client));
          return { s, conv, client, msgid: s.msgid(), hooks: 0 };
        },
        steps: [
          // One hook or more: a hook sent again (a retry) is still "outgoing-message hooks arrive" (R2-C4).
          step<Import, number>('', async (_t, i) => hooksAfterAccountMessage(i.s, i.conv), [someHooks('for a message from the account')]),
          step<Import>('the imported bot message', (_t, i) => i.s.sendMessage({ ...importedBotMessage(i.s, i.conv, i.client, 'imported from the bot'), msgid: i.msgid }), [status(200)]),
          step<Import, HistoryItem[]>('history', (_t, i) => i.s.allHistory(i.conv, (items) => items.some((x) => x.message?.client_id === i.msgid)), (_t, i) => [heldOnce(i.msgid)]),
          step<Import, number>('', (_t, i) => hooksWithText(i.s, i.conv, 'imported from the bot'), [valueIs(equals(0), 'no hook for the imported bot message', 'the hooks carrying its text')]),
        ],
      },
    ),
  ],
});
