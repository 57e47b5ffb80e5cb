/**
 * §2.11 embedded_message object.
 *
 * §2.11 embedded message: the quoted message's sender is a short participant; "if id or ref_id is given the rest is
 * resolved automatically", so a quote without message id whose sender names only one of them is accepted (no name).
 * Checked on reply_to and on forwards, for the client of the conversation, by its integration-side and its
 * chat-interface id.
 *
 * §2.11 embedded message named by id or msgid: "the remaining fields are resolved automatically". A reply and a
 * forward naming the conversation's first message by its integration-side msgid only, and by its chat-interface id
 * only, are stored (control API GET /_control/chat/messages) with that message's type, text, times and sender.
 */
import {
  chatSweepRule, type Conversation, conversationWith, defineGroup, newMessageBody, onAnswer, quoteAndRead, type QuotedConversation, quotedConversation, quoteResolvedAs, type QuoteSeen, type QuoteWay, status, sweepRule,
  MESSAGE_TYPES,
} from '../kit.js';
import { fullEmbedded, type EmbeddedCase, EMBEDDED_CASES, type SenderCase, CASES, quote } from './support.js';
import { refusal, accepted, messageEvent, requiredRule } from '../fixtures/chat.js';

export default defineGroup({
  heading: 'embedded_message object (inside `reply_to.message` and `forwards.messages[]`)',
  rules: [
    // §2.11 embedded message
    requiredRule(
      { id: 'chat.embedded.required', title: 'A quoted message given without id or msgid must carry type, text (for text), timestamp, msec_timestamp and sender with name; else 400',
        reading: '§2.11: with id or msgid the rest is resolved; without, those fields are required.',
        covers: ['2.11/type', '2.11/text', '2.11/timestamp', '2.11/msec_timestamp', '2.11/sender', '4.3/Send, edit or import a message/reply_to'] },
      (s) => messageEvent(s, { reply_to: { message: fullEmbedded() } }),
      ['type', 'text', 'timestamp', 'msec_timestamp', 'sender'].map((k) => ({ path: ['payload', 'reply_to', 'message', k], type: k === 'sender' ? 'object' as const : k.includes('timestamp') ? 'int' as const : k === 'type' ? 'enum' as const : 'string' as const, ...(k === 'type' && { values: MESSAGE_TYPES }) }))
        .concat([{ path: ['payload', 'reply_to', 'message', 'sender', 'name'], type: 'string' }]),
    ),
    chatSweepRule<EmbeddedCase>(
      { id: 'chat.embedded.by-type', title: 'A quoted location or contact without id needs its location or contact; file_name, file_size and media_duration are optional',
        covers: ['2.11/location', '2.11/contact', '2.11/file_name', '2.11/file_size', '2.11/media_duration'] },
      {
        named: EMBEDDED_CASES,
        send: (s, c) => s.postEvent(messageEvent(s, { reply_to: { message: c.message } })),
        expect: (c) => (c.accepted ? accepted : refusal),
        label: (c) => c.what,
      },
    ),
    chatSweepRule<SenderCase, Conversation>(
      { id: 'chat.embedded.sender-by-id', title: 'A quoted or forwarded message without id whose sender gives only id, or only ref_id, and no name is accepted with 200',
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
    sweepRule<QuoteWay, QuoteSeen, QuotedConversation>(
      { id: 'chat.embedded.resolved', needs: ['ground-truth'],
        title: 'A reply_to or forward naming a message by msgid only, or by id only, is stored with the quoted message\'s type, text, timestamps and sender',
        reading: '§2.11: with id (chat-interface side) or msgid (integration side) "the remaining fields are resolved automatically", msgid having "the same effect as id". The quoting message and the quoted one are read through the control API; the quote must carry the quoted one\'s type, text, timestamp, msec_timestamp and sender ids (the name may change with the participant).',
        covers: ['2.11/id', '2.11/msgid', '4.3/Send, edit or import a message/reply_to', '4.3/Send, edit or import a message/forwards'] },
      {
        setup: quotedConversation,
        named: [
          { where: 'reply_to', by: 'msgid' }, { where: 'reply_to', by: 'id' }, { where: 'forwards', by: 'msgid' }, { where: 'forwards', by: 'id' },
        ],
        send: (_t, way, f) => quoteAndRead(f, way),
        expect: (_t, _way, f) => [onAnswer(status(200)), quoteResolvedAs(f.quoted)],
        label: (way) => `${way.where} by ${way.by} only`,
      },
    ),
  ],
});
