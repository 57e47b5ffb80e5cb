/**
 * §4.3 Chat interface: Update delivery status.
 *
 * §4.3 "Update delivery status": {msgid} is "a message id", and new_message.msgid is the "Message id in the chat
 * interface": a status for that id must be taken (C25 of the review). Whether the integration-side msgid (the one
 * sent) names the message too is recorded.
 *
 * §4.3 delivery status and reactions, applied: what the account keeps about a message after each request, read
 * through the control API (GET /_control/chat/messages), not only the 200 the request answers.
 */
import {
  chatSession, type Conversation, conversationWith, defineGroup, equals, exchangeRule, noBody, observedStatus, scenarioRule, sentByDefault, status, step, valueFields,
} from '../kit.js';
import { truth } from './support.js';

export default defineGroup({
  heading: 'Update delivery status',
  rules: [
    exchangeRule(
      { id: 'chat.delivery-status.by-chat-interface-id', title: 'A delivery status with the chat-interface message id (new_message.msgid) in the path answers 200',
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
      { id: 'chat.delivery-status.by-msgid', level: 'info', title: 'Whether a delivery status with the integration-side msgid (the one sent) in the path is accepted',
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
    scenarioRule<Conversation>(
      { id: 'chat.delivery-status.applied', requires: ['write', 'control'],
        title: 'Each delivery status sent (1, then 2, then -1 with 905 and a text) becomes the message\'s status, error code and text',
        reading: '§4.3 "Update delivery status" and §3.3: the status sent is the delivery status of the message named (the first of two, not the latest of its chat); transitions are not shown, so each one sent is applied. Read through the control API.',
        covers: ['4.3/Update delivery status/status_code', '4.3/Update delivery status/error_code', '4.3/Update delivery status/error', '3.3/delivered', '3.3/read', '3.3/error', '3.3/905'] },
      {
        setup: (t) => conversationWith(t, 2),
        steps: [
          step('status 1', (_t, c) => c.s.deliveryStatus(c.sent[0]!.id, { status_code: 1 }), [status(200)]),
          truth('after status 1', [valueFields('delivered', { 'delivery_status.status_code': equals(1) })]),
          step('status 2', (_t, c) => c.s.deliveryStatus(c.sent[0]!.id, { status_code: 2 }), [status(200)]),
          truth('after status 2', [valueFields('read', { 'delivery_status.status_code': equals(2) })]),
          step('status -1, 905', (_t, c) => c.s.deliveryStatus(c.sent[0]!.id, { status_code: -1, error_code: 905, error: 'Blocked by the user' }), [status(200)]),
          truth('after status -1', [valueFields('error', { 'delivery_status.status_code': equals(-1), 'delivery_status.error_code': equals(905), 'delivery_status.error': equals('Blocked by the user') })]),
        ],
      },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.delivery-status.default', level: 'info', requires: ['write', 'control'],
        title: 'What the account keeps as the delivery status of a message before any status is sent',
        reading: '§3.3 "sent | none (the default; no numeric value given)": no answer of the spec shows a message\'s status, so what the account stores (through the control API) is recorded, never judged (R2-C1 of the review; it was a failure of chat.delivery-status.applied, C13).',
        covers: ['3.3/sent'] },
      {
        setup: (t) => conversationWith(t, 1),
        steps: [truth('before any status', [sentByDefault])],
      },
    ),
  ],
});
