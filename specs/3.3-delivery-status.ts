/**
 * §3.3 Message delivery status and §4.3 "Update delivery status" (with the §2.9 object): the states 1, 2 and -1,
 * the error codes 901–905 (905 with an `error` text), refusal of anything else, 404 for an unknown message.
 */
import fc from 'fast-check';
import {
  chatRule, chatSession, ChatSession, chatSweepRule, defineSpec, emptyOrJsonBody, jsonContentType, observedStatus, type ParticipantBody, scenarioRule, status, step,
} from './kit.js';

const DS = (f: string) => `4.3/Update delivery status/${f}`;

/** A message of the rule's own to set delivery statuses on. */
interface Marked {
  readonly s: ChatSession;
  readonly msgid: string;
}

async function messageToMark(s: ChatSession): Promise<Marked> {
  const conv = s.conversationId();
  return { s, msgid: (await s.mustSend(s.payload(conv, s.client()))).msgid };
}

/** Three messages in one conversation, from one client. */
interface Conversation {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
}

interface StatusCase {
  readonly what: string;
  readonly body: Record<string, unknown>;
}

const ACCEPTED: StatusCase[] = [
  { what: 'delivered (1)', body: { status_code: 1 } },
  { what: 'read (2)', body: { status_code: 2 } },
  ...[901, 902, 903, 904, 905].map((code) => ({ what: `error (-1) with ${code}`, body: { status_code: -1, error_code: code, error: `reason ${code}` } })),
];

const REFUSED: StatusCase[] = [
  { what: 'no status_code', body: {} },
  { what: 'status_code 0', body: { status_code: 0 } },
  { what: 'status_code 3', body: { status_code: 3 } },
  { what: 'status_code "1" (a string)', body: { status_code: '1' } },
  { what: '-1 without error_code', body: { status_code: -1, error: 'x' } },
  { what: '-1 with error_code 900', body: { status_code: -1, error_code: 900, error: 'x' } },
  { what: '-1 with error_code 906', body: { status_code: -1, error_code: 906, error: 'x' } },
  { what: '-1 with 905 and no error text', body: { status_code: -1, error_code: 905 } },
];

export default defineSpec({
  section: '3.3',
  title: 'Message delivery status',
  level: 'must',
  rules: [
    chatSweepRule<StatusCase, Marked>(
      { id: 'chat.delivery-status.accepted', requires: ['write'], title: 'Delivery status 1, 2, and -1 with each error code 901–905 answers 200',
        reading: 'docs/field-notes.md: 200 with no body. Transitions between statuses are not shown (§3.3), so any order is allowed: the cases are applied to one message in random order.',
        covers: ['3.3/delivered', '3.3/read', '3.3/error', '3.3/901', '3.3/902', '3.3/903', '3.3/904', '3.3/905', DS('status_code'), DS('error_code'), DS('error'), '2.9/status_code', '2.9/error_code', '2.9/error', '4.3/Update delivery status'] },
      {
        setup: messageToMark,
        named: ACCEPTED,
        cases: () => fc.constantFrom(...ACCEPTED),
        send: ({ s, msgid }, c) => s.deliveryStatus(msgid, c.body),
        expect: [status(200), emptyOrJsonBody],
        label: (c) => c.what,
      },
    ),
    chatSweepRule<StatusCase, Marked>(
      { id: 'chat.delivery-status.refused', requires: ['write'], title: 'Any other status_code, -1 without a 901–905 error_code, and 905 without error text are refused with 400',
        reading: '§4.3: status_code is 1, 2 or -1; error_code is required with -1 (901 to 905, §3.3); 905 needs the error text.',
        covers: ['3.3/error', '3.3/905', DS('status_code'), DS('error_code'), DS('error'), '2.9/status_code', '2.9/error_code'] },
      {
        setup: messageToMark,
        named: REFUSED,
        cases: () => fc.oneof(
          fc.integer().filter((n) => ![1, 2, -1].includes(n)).map((n) => ({ what: `status_code ${n}`, body: { status_code: n } })),
          fc.integer().filter((n) => n < 901 || n > 905).map((n) => ({ what: `-1 with error_code ${n}`, body: { status_code: -1, error_code: n, error: 'x' } })),
          fc.constantFrom(...REFUSED),
        ),
        send: ({ s, msgid }, c) => s.deliveryStatus(msgid, c.body),
        expect: [status(400), jsonContentType],
        label: (c) => c.what,
      },
    ),
    chatRule(
      { id: 'chat.delivery-status.unknown-message', requires: [], title: 'Delivery status of a message that does not exist answers 404', covers: ['4.3/Update delivery status'] },
      { send: (s) => s.deliveryStatus(`no-such-${s.t.runId}`, { status_code: 1 }), expect: [status(404), jsonContentType] },
    ),
    scenarioRule<Conversation>(
      { id: 'chat.delivery-status.in-message', section: '2.9', requires: ['write'], title: 'A message may carry delivery_status {status_code}; an invalid one is refused with 400',
        reading: '§2.7: message.delivery_status is optional (default: sent); when given it is the §2.9 object.', covers: ['2.7/delivery_status', '2.9/status_code', '3.3/sent'] },
      {
        setup: async (t) => {
          const s = await chatSession(t);
          return { s, conv: s.conversationId(), client: s.client() };
        },
        steps: [
          step('status 1', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client, { message: { type: 'text', text: 'x', delivery_status: { status_code: 1 } } })), [status(200)]),
          step('status 7', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client, { message: { type: 'text', text: 'x', delivery_status: { status_code: 7 } } })), [status(400)]),
          step('without (sent)', (_t, { s, conv, client }) => s.sendMessage(s.payload(conv, client)), [status(200)]),
        ],
      },
    ),
    chatRule<Marked>(
      { id: 'chat.delivery-status.alias', level: 'info', requires: ['write'], title: 'Whether delivery_status is accepted in place of status_code (public clients send it)',
        reading: 'docs/field-notes.md: public clients send the code as delivery_status; the spec says status_code. Reported, not judged.', covers: [DS('status_code')] },
      { setup: messageToMark, send: ({ s, msgid }) => s.deliveryStatus(msgid, { delivery_status: 2 }), expect: [observedStatus('delivery_status alias')] },
    ),
    chatSweepRule<number, Marked>(
      { id: 'chat.delivery-status.error-text-optional', level: 'info', requires: ['write'], title: 'Whether -1 with error codes 901–904 is accepted without error text',
        reading: 'The §4.3 table marks error "required only when status_code is -1"; §3.3 asks for the text with 905. The two readings differ for 901–904: reported, not judged.', covers: [DS('error')] },
      {
        setup: messageToMark,
        named: [901, 902, 903, 904],
        send: ({ s, msgid }, code) => s.deliveryStatus(msgid, { status_code: -1, error_code: code }),
        expect: [observedStatus('-1 without error text')],
        label: (code) => String(code),
      },
    ),
  ],
});
