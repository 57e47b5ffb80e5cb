/**
 * §2.11 embedded message named by id or msgid: "the remaining fields are resolved automatically". A reply and a
 * forward naming the conversation's first message by its integration-side msgid only, and by its chat-interface id
 * only, are stored (control API GET /_control/chat/messages) with that message's type, text, times and sender.
 */
import { defineSpec, onAnswer, quoteAndRead, type QuotedConversation, quotedConversation, quoteResolvedAs, type QuoteSeen, type QuoteWay, status, sweepRule } from './kit.js';

export default defineSpec({
  section: '2.11',
  title: 'Embedded message: resolved by id or msgid',
  level: 'must',
  rules: [
    sweepRule<QuoteWay, QuoteSeen, QuotedConversation>(
      { id: 'chat.embedded.resolved', requires: ['write'], needs: ['ground-truth'],
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
