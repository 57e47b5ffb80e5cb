/**
 * §4.3 "Update delivery status": {msgid} is "a message id", and new_message.msgid is the "Message id in the chat
 * interface": a status for that id must be taken (C25 of the review). Whether the integration-side msgid (the one
 * sent) names the message too is recorded.
 */
import {
  chatSession, defineSpec, noBody, exchangeRule, observedStatus, status,
} from './kit.js';

export default defineSpec({
  section: '3.3',
  title: 'Message delivery status: which id names the message',
  level: 'must',
  rules: [
    exchangeRule(
      { id: 'chat.delivery-status.by-chat-interface-id', section: '4.3', requires: ['write'],
        title: 'A delivery status with the chat-interface message id (new_message.msgid) in the path answers 200',
        reading: '§4.3: the path\'s {msgid} is "a message id", and new_message.msgid is the "Message id in the chat interface", whose paths these are; a 404 for it fails (status-code, C25 of the review).',
        covers: ['4.3/Update delivery status/status_code'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const sent = await s.mustSend(s.payload(s.conversationId(), s.client()));
          return s.deliveryStatus(sent.id, { status_code: 2 });
        },
        expect: [status(200), noBody],
      },
    ),
    exchangeRule(
      { id: 'chat.delivery-status.by-msgid', section: '4.3', level: 'info', requires: ['write'],
        title: 'Whether a delivery status with the integration-side msgid (the one sent) in the path is accepted',
        reading: '§4.3 names the chat-interface id; whether the integration-side msgid names the message too is not stated. Reported, not judged (C25 of the review).',
        covers: ['4.3/Update delivery status/status_code'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const sent = await s.mustSend(s.payload(s.conversationId(), s.client()));
          return s.deliveryStatus(sent.msgid, { status_code: 2 });
        },
        expect: [observedStatus('integration-side msgid in the path')],
      },
    ),
  ],
});
