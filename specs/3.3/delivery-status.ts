/**
 * §3.3 Message delivery status.
 *
 * §3.3 Message delivery status and §4.3 "Update delivery status" (with the §2.9 object): the states 1, 2 and -1,
 * the error codes 901–905 (905 with an `error` text), refusal of anything else, 404 for an unknown message.
 */
import fc from 'fast-check';
import {
  chatRule, chatSession, chatSweepRule, defineGroup, jsonContentType, noBody, observedStatus, refusalPreferred, scenarioRule, status, step, whenRefused,
} from '../kit.js';
import { type RouteMessage, routeMessage, sendDeliveryStatus, REPEAT_ANSWER } from '../fixtures/chat.js';
import { DS, type Marked, messageToMark, type Conversation, type StatusCase, ACCEPTED, WRONG_TYPE, REFUSED } from './support.js';

export default defineGroup({
  heading: 'Message delivery status',
  rules: [
    chatSweepRule<StatusCase>(
      { id: 'chat.delivery-status.accepted', title: 'Delivery status 1, 2, and -1 with each error code 901–905 answers 200',
        reading: 'docs/field-notes.md: 200 with no body. Transitions between statuses are not shown (§3.3), so each case goes to a message of its own that has no status yet (chat.delivery-status.transitions records the orders; C24 of the review). The path names the message by its chat-interface id (new_message.msgid; C25).',
        covers: ['3.3/delivered', '3.3/read', '3.3/error', '3.3/901', '3.3/902', '3.3/903', '3.3/904', '3.3/905', DS('status_code'), DS('error_code'), DS('error'), '2.9/status_code', '2.9/error_code', '2.9/error', '4.3/Update delivery status'] },
      {
        named: ACCEPTED,
        cases: () => fc.constantFrom(...ACCEPTED),
        send: async (s, c) => s.deliveryStatus((await messageToMark(s)).msgid, c.body),
        expect: [status(200), noBody],
        label: (c) => c.what,
      },
    ),
    chatSweepRule<StatusCase, Marked>(
      { id: 'chat.delivery-status.refused', title: 'Any other status_code, -1 without a 901–905 error_code, and 905 without error text are refused with 400',
        reading: '§4.3: status_code is 1, 2 or -1; error_code is required with -1 (901 to 905, §3.3); 905 needs the error text. status_code "1" (a string) coerced and accepted is non_strict (wrong-type, C27 of the review), its bodiless 200 judged without a Content-Type (R2-C3); status_code "" is no spelling of any code and accepted fails (R3-C6).',
        covers: ['3.3/error', '3.3/905', DS('status_code'), DS('error_code'), DS('error'), '2.9/status_code', '2.9/error_code'] },
      {
        setup: messageToMark,
        named: [...REFUSED, ...WRONG_TYPE],
        cases: () => fc.oneof(
          fc.integer().filter((n) => ![1, 2, -1].includes(n)).map((n) => ({ what: `status_code ${n}`, body: { status_code: n } })),
          fc.integer().filter((n) => n < 901 || n > 905).map((n) => ({ what: `-1 with error_code ${n}`, body: { status_code: -1, error_code: n, error: 'x' } })),
          fc.constantFrom(...REFUSED),
        ),
        send: ({ s, msgid }, c) => s.deliveryStatus(msgid, c.body),
        // Taken, the answer is the bodiless 200 of §4.3, which need carry no Content-Type (R2-C3): only a refusal's type is read.
        expect: (c) => (WRONG_TYPE.includes(c) ? [refusalPreferred('status 400'), whenRefused(jsonContentType)] : [status(400), jsonContentType]),
        label: (c) => c.what,
      },
    ),
    chatRule(
      { id: 'chat.delivery-status.unknown-message', requires: [], title: 'Delivery status of a message that does not exist answers 404', covers: ['4.3/Update delivery status'] },
      { send: (s) => s.deliveryStatus(`no-such-${s.t.runId}`, { status_code: 1 }), expect: [status(404), jsonContentType] },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.delivery-status.in-message', section: '2.9', title: 'A message may carry delivery_status {status_code}; an invalid one is refused with 400',
        reading: '§2.7: message.delivery_status is optional (default: sent); when given it is the §2.9 object. A message whose embedded status is not one of §3.3 may still be taken (the status ignored): refused with 400 passes, accepted is non_strict (C17 of the review); a message with a valid status, or none, refused fails.', covers: ['2.7/delivery_status', '2.9/status_code', '3.3/sent'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, conv: s.conversationId(), client: s.client() };
        },
        steps: [
          step('status 1', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client, { message: { type: 'text', text: 'x', delivery_status: { status_code: 1 } } })), [status(200)]),
          step('status 7', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client, { message: { type: 'text', text: 'x', delivery_status: { status_code: 7 } } })), [refusalPreferred('status 400')]),
          step('without (sent)', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client)), [status(200)]),
        ],
      },
    ),
    chatRule<Marked>(
      { id: 'chat.delivery-status.alias', level: 'info', title: 'Whether delivery_status is accepted in place of status_code (public clients send it)',
        reading: 'docs/field-notes.md: public clients send the code as delivery_status; the spec says status_code. Reported, not judged.', covers: [DS('status_code')] },
      { setup: messageToMark, send: ({ s, msgid }) => s.deliveryStatus(msgid, { delivery_status: 2 }), expect: [observedStatus('delivery_status alias')] },
    ),
    chatSweepRule<number, Marked>(
      { id: 'chat.delivery-status.error-text-optional', title: '-1 with error codes 901–904 and no error text is refused with 400 (accepted: non_strict)',
        reading: 'The §4.3 table marks error "required only when status_code is -1" (required-member: 400 passes); §3.3 asks for the text only with 905, so a server that takes 901–904 without it is non_strict, not failed (C26 of the review).', covers: [DS('error')] },
      {
        setup: messageToMark,
        named: [901, 902, 903, 904],
        send: ({ s, msgid }, code) => s.deliveryStatus(msgid, { status_code: -1, error_code: code }),
        expect: [refusalPreferred('status 400')],
        label: (code) => String(code),
      },
    ),
    chatRule<Marked>(
      { id: 'chat.delivery-status.transitions', level: 'info', title: 'Whether a delivery status may go back (read, then delivered)',
        reading: '§3.3: "Transitions between delivery statuses: not shown". Reported, not judged (C24 of the review).', covers: ['3.3/delivered', '3.3/read'] },
      {
        setup: async (s) => {
          const marked = await messageToMark(s);
          await s.deliveryStatus(marked.msgid, { status_code: 2 });
          return marked;
        },
        send: ({ s, msgid }) => s.deliveryStatus(msgid, { status_code: 1 }),
        expect: [observedStatus('delivered after read')],
      },
    ),
    scenarioRule<RouteMessage>(
      { id: 'chat.repeated.delivery-status',
        title: 'The same delivery status sent twice (delivered, then read) answers without a 5xx',
        reading: '§4.3 delivery status: 200 with no body for a message that exists. The same status again is no transition §3.3 shows ("not shown"): its answer is recorded, a refusal as much as a 200 (REPEAT_ANSWER, R2-C18). A 5xx fails.' },
      {
        setup: routeMessage,
        steps: [
          step<RouteMessage>('delivered', (_t, x) => sendDeliveryStatus(x, 1), [status(200)]),
          step<RouteMessage>('delivered again', (_t, x) => sendDeliveryStatus(x, 1), [REPEAT_ANSWER]),
          step<RouteMessage>('read', (_t, x) => sendDeliveryStatus(x, 2), [status(200)]),
          step<RouteMessage>('read again', (_t, x) => sendDeliveryStatus(x, 2), [REPEAT_ANSWER]),
        ],
      },
    ),
  ],
});
