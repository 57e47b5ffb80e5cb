/**
 * §2.11 embedded message: the quoted message's sender is a short participant; "if id or ref_id is given the rest is
 * resolved automatically", so a quote without message id whose sender names only one of them is accepted (no name).
 * Checked on reply_to and on forwards, for the client of the conversation, by its integration-side and its
 * chat-interface id.
 */
import { chatSweepRule, type Conversation, conversationWith, defineSpec, newMessageBody, status } from './kit.js';

interface SenderCase { readonly where: 'reply_to' | 'forwards'; readonly by: 'id' | 'ref_id' }

const CASES: SenderCase[] = [
  { where: 'reply_to', by: 'id' }, { where: 'reply_to', by: 'ref_id' }, { where: 'forwards', by: 'id' }, { where: 'forwards', by: 'ref_id' },
];

/** A quote of the conversation's first message given in full, except that its sender is named by one id only. */
function quote(c: Conversation, by: SenderCase['by']): Record<string, unknown> {
  const sender = by === 'id' ? { id: c.client.id } : { ref_id: c.clientRef };
  const ms = c.s.now().getTime() - 60_000;
  return { type: 'text', text: 'message 1', timestamp: Math.floor(ms / 1000), msec_timestamp: ms, sender };
}

export default defineSpec({
  section: '2.11',
  title: 'Embedded message: sender resolved by id',
  level: 'must',
  rules: [
    chatSweepRule<SenderCase, Conversation>(
      { id: 'chat.embedded.sender-by-id', requires: ['write'],
        title: 'A quoted or forwarded message without id whose sender gives only id, or only ref_id, and no name is accepted with 200',
        reading: '§2.11 sender: name is "required when neither id is given"; with id (integration-side) or ref_id (chat-interface side) the rest is resolved. The ids are those of the conversation\'s client (ref_id from new_message.sender_id).',
        covers: ['2.11/sender', '4.3/Send, edit or import a message/reply_to', '4.3/Send, edit or import a message/forwards'] },
      {
        setup: (s) => conversationWith(s.t, 1),
        named: CASES,
        send: (c, k) => c.s.postEvent(newMessageBody(c.s.payload(c.conv, c.client, {
          message: { type: 'text', text: `quoting with sender.${k.by} only` },
          ...(k.where === 'reply_to' ? { reply_to: { message: quote(c, k.by) } } : { forwards: { messages: [quote(c, k.by)] } }),
        }))),
        expect: [status(200)],
        label: (k) => `${k.where}, sender.${k.by} only`,
      },
    ),
  ],
});
