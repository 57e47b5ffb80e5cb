/**
 * §4.3 as a whole: a model-based property (random sequences of create chat / send / edit / import / delivery status /
 * reaction / history against a model; the history always matches it), the order the target uses, and concurrency
 * (parallel messages to one conversation each appear once).
 */
import {
  type ChatCommand, chatCommands, chatSession, countByClientId, defineSpec, fail, ModelMismatch, namedChatSequences, nonStrict, observed, pass, rule, runChatModel, sweepThenProperty,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;
const HISTORY = (f: string) => `4.3/Get chat history/${f}`;

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: model-based and concurrent behaviour',
  level: 'must',
  rules: [
    rule(
      { id: 'chat.model.history', requires: ['write'], title: 'Random sequences of create chat, send, edit, import, status, react and history: the history always matches the model',
        reading: 'Every message once, none lost, the latest edit shown, pages of any size joining exactly; delivery statuses and reactions change no history. A message may appear after a short delay ("accepted for processing"): reads poll for up to ~0.7 s.',
        covers: [SEND('message'), SEND('msgid'), SEND('silent'), SEND('id'), HISTORY('offset'), HISTORY('limit'), HISTORY('message[id]'), HISTORY('message[client_id]'), HISTORY('message[text]'), '4.3/Create chat', '4.3/Update delivery status', '4.3/Reaction'] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const orders = new Set<string>();
        const check = async (cmds: Iterable<ChatCommand>) => {
          try {
            const departures = await runChatModel(s, cmds, orders);
            return [pass('model', 'the history matched the model'), ...departures.map((d) => nonStrict('model', d))];
          } catch (err) {
            if (err instanceof ModelMismatch) return [fail('model', err.message)];
            throw err;
          }
        };
        return sweepThenProperty(t, { named: namedChatSequences(), check, cases: chatCommands(), what: 'named sequences' });
      },
    ),
    rule(
      { id: 'chat.model.order', level: 'info', requires: ['write'], title: 'The order in which history lists messages',
        reading: 'The spec does not state the order of history. Reported, not judged: by message time, newest or oldest first, or another.',
        covers: [HISTORY('timestamp'), HISTORY('msec_timestamp')] },
      async (t) => {
        const s = await chatSession(t);
        const conv = s.conversationId();
        const client = s.client();
        const base = Date.now() - 60_000;
        // Sent out of time order: the answer tells arrival order from message-time order.
        const sent = [];
        for (const offset of [2000, 0, 1000]) sent.push({ msgid: (await s.mustSend(s.payload(conv, client, {}, base + offset))).msgid, at: offset });
        const items = await s.allHistory(conv, (i) => i.length >= 3);
        const seen = items.map((i) => i.message?.client_id);
        const byTime = [...sent].sort((a, b) => a.at - b.at).map((x) => x.msgid);
        const order = seen.join() === byTime.join() ? 'by message time, oldest first'
          : seen.join() === [...byTime].reverse().join() ? 'by message time, newest first'
            : seen.join() === sent.map((x) => x.msgid).join() ? 'by arrival, oldest first'
              : seen.join() === sent.map((x) => x.msgid).reverse().join() ? 'by arrival, newest first' : 'another order';
        return t.outcome([observed('history order', order)]);
      },
    ),
    rule(
      { id: 'chat.concurrency.messages', requires: ['write'], title: '16 messages sent in parallel to one conversation each appear in the history exactly once',
        reading: 'Rule 1 of §4.3: the message is created for its msgid and conversation_id, also when others arrive at the same time.', covers: [SEND('msgid'), SEND('conversation_id')] },
      async (t) => {
        const s = await chatSession(t);
        await s.scope();
        const conv = s.conversationId();
        const client = s.client();
        const base = Date.now();
        const payloads = Array.from({ length: 16 }, (_, i) => s.payload(conv, client, {}, base + i));
        const answers = await Promise.all(payloads.map((p) => s.sendMessage(p)));
        const refused = answers.filter((r) => r.status !== 200).length;
        const items = await s.allHistory(conv, (i) => i.length >= 16);
        const counts = countByClientId(items);
        const lost = payloads.filter((p) => !counts.has(p.msgid)).length;
        const twice = [...counts.values()].filter((n) => n > 1).length;
        return t.outcome([
          refused === 0 ? pass('accepted', '16 × 200') : fail('accepted', `${refused} of 16 parallel messages were not answered 200`),
          lost === 0 && twice === 0 ? pass('each once', `${items.length} messages`) : fail('each once', `of 16 parallel messages ${lost} are missing from the history and ${twice} appear more than once`),
        ]);
      },
    ),
  ],
});
