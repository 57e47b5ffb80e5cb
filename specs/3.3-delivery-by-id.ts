/**
 * §4.3 "Update delivery status": {msgid} is "a message id". The integration's msgid is checked by
 * chat.delivery-status.accepted; whether the chat-interface id (new_message.msgid) names the message too is recorded.
 */
import {
  chatSession, defineSpec, exchangeRule, observedStatus,
} from './kit.js';

export default defineSpec({
  section: '3.3',
  title: 'Message delivery status: which id names the message',
  level: 'info',
  rules: [
    exchangeRule(
      { id: 'chat.delivery-status.by-chat-interface-id', section: '4.3', requires: ['write'],
        title: 'Whether a delivery status with the chat-interface message id (new_message.msgid) in the path is accepted',
        reading: '§4.3 calls {msgid} "a message id" without saying which side\'s; the integration-side msgid is the one the rules rely on. Reported, not judged.',
        covers: ['4.3/Update delivery status/status_code'] },
      {
        send: async (t) => {
          const s = await chatSession(t);
          const sent = await s.mustSend(s.payload(s.conversationId(), s.client()));
          return s.deliveryStatus(sent.id, { status_code: 2 });
        },
        expect: [observedStatus('chat-interface id in the path')],
      },
    ),
  ],
});
