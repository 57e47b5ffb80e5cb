/**
 * §4.3 delivery status and reactions, applied: what the account keeps about a message after each request, read
 * through the control API (GET /_control/chat/messages), not only the 200 the request answers.
 */
import {
  type Conversation, conversationWith, defineSpec, equals, hasLength, messageTruth, type MessageTruth, scenarioRule, sentByDefault, status, step, valueField, valueFields,
} from './kit.js';

const truth = (label: string, judges: Parameters<typeof step<Conversation, MessageTruth>>[2]) =>
  step<Conversation, MessageTruth>(label, (_t, c) => messageTruth(c.s, c.conv, c.sent[0]!.msgid), judges);

const react = (c: Conversation, type: 'react' | 'unreact') =>
  c.s.react({ conversation_id: c.conv, msgid: c.sent[0]!.msgid, user: { id: c.client.id }, type, emoji: '👍' });

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: delivery status and reactions applied',
  level: 'must',
  rules: [
    scenarioRule<Conversation>(
      { id: 'chat.delivery-status.applied', requires: ['write', 'control'],
        title: 'Each delivery status sent (1, then 2, then -1 with 905 and a text) becomes the message\'s status, error code and text',
        reading: '§4.3 "Update delivery status" and §3.3: the status sent is the delivery status of the message named (the first of two, not the latest of its chat); transitions are not shown, so each one sent is applied. Before any, the message is sent: no status passes, another spelling of "sent" is recorded, a stated code (1, 2, -1) fails (C13 of the review). Read through the control API.',
        covers: ['4.3/Update delivery status/status_code', '4.3/Update delivery status/error_code', '4.3/Update delivery status/error', '3.3/sent', '3.3/delivered', '3.3/read', '3.3/error', '3.3/905'] },
      {
        setup: (t) => conversationWith(t, 2),
        steps: [
          truth('before any status', [sentByDefault]),
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
      { id: 'chat.react.applied', requires: ['write', 'control'],
        title: 'react adds the user\'s reaction to the message; unreact removes it',
        reading: '§4.3 reaction: type react or unreact, on the message named (the first of two, not the latest of its chat). The reaction is the user\'s (user.id, integration side) with the emoji sent. Read through the control API.',
        covers: ['4.3/Reaction/type', '4.3/Reaction/emoji', '4.3/Reaction/user[id]'] },
      {
        setup: (t) => conversationWith(t, 2),
        steps: [
          step('react', (_t, c) => react(c, 'react'), [status(200)]),
          truth('after react', (_t, c) => [valueFields('reacted', { reactions: hasLength(1), 'reactions.0.user_id': equals(c.client.id), 'reactions.0.emoji': equals('👍') })]),
          step('unreact', (_t, c) => react(c, 'unreact'), [status(200)]),
          truth('after unreact', [valueField('reactions', hasLength(0), 'unreacted')]),
        ],
      },
    ),
  ],
});
