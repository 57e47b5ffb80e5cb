/**
 * §4.3 payload fields sent and checked one by one: silent is a bool; receiver is a participant (§2.5) with id and name
 * strings; an incoming message from a client has no receiver (message kinds), so a client-sent message that names
 * one matches no kind. Each case breaks one thing of a message that is otherwise accepted.
 */
import {
  type CaseReading, chatSession, type ChatSession, defineSpec, type HttpResponse, type MessagePayload, refusalChecks, sweepRule,
} from './kit.js';

const SEND = (f: string) => `4.3/Send, edit or import a message/${f}`;

interface Broken {
  readonly what: string;
  /** The payload of a valid incoming message, changed in one place (any JSON: the point is sending what is wrong). */
  readonly change: (s: ChatSession, p: MessagePayload) => Record<string, unknown>;
  /** The reading that judges accepting it (docs/verdicts.md): a value of another JSON type, or a required member missing. */
  readonly reading: CaseReading;
}

const SILENT: readonly Broken[] = [
  { what: 'silent "true" (a string)', change: (_s, p) => ({ ...p, silent: 'true' }), reading: 'wrong-type' },
  { what: 'silent "false" (a string)', change: (_s, p) => ({ ...p, silent: 'false' }), reading: 'wrong-type' },
  { what: 'silent 1 (a number)', change: (_s, p) => ({ ...p, silent: 1 }), reading: 'wrong-type' },
];

/** Outgoing from an account user (sender.ref_id = MANAGER_USER_ID) to a client, its receiver broken one way. */
function outgoing(s: ChatSession, p: MessagePayload, receiver: unknown): Record<string, unknown> {
  return { ...p, sender: s.manager(), receiver };
}

const RECEIVER: readonly Broken[] = [
  { what: 'receiver without id', change: (s, p) => outgoing(s, p, { name: 'Client' }), reading: 'required-member' },
  { what: 'receiver without name', change: (s, p) => outgoing(s, p, { id: s.client().id }), reading: 'required-member' },
  { what: 'receiver id 42 (a number)', change: (s, p) => outgoing(s, p, { id: 42, name: 'Client' }), reading: 'wrong-type' },
  { what: 'receiver name 42 (a number)', change: (s, p) => outgoing(s, p, { id: s.client().id, name: 42 }), reading: 'wrong-type' },
  { what: 'receiver a string', change: (s, p) => outgoing(s, p, 'client'), reading: 'wrong-type' },
];

function brokenRule(meta: { id: string; title: string; reading: string; covers: string[] }, cases: readonly Broken[]) {
  return sweepRule<Broken, HttpResponse, ChatSession>(
    { ...meta, requires: ['write'] },
    {
      setup: (t) => chatSession(t),
      named: cases,
      label: (c) => c.what,
      send: (_t, c, s) => s.postEvent({ event_type: 'new_message', payload: c.change(s, s.payload(s.conversationId(), s.client())) }),
      expect: (_t, c) => refusalChecks(c.reading),
    },
  );
}

export default defineSpec({
  section: '4.3',
  title: 'Chat interface: silent and receiver sent and checked',
  level: 'must',
  rules: [
    brokenRule({ id: 'chat.message.silent-type', title: 'A message whose silent is a string or a number is refused with 400',
      reading: '§4.3 payload table: silent is a bool; 400 when data is invalid. A string "true" is not a bool; coerced and accepted it is non_strict (wrong-type).', covers: [SEND('silent')] }, SILENT),
    brokenRule({ id: 'chat.message.receiver-invalid', title: 'An outgoing message whose receiver lacks id or name, or has either as a number, is refused with 400',
      reading: '§4.3: receiver is a participant (§2.5): id and name, strings, required. The sender is an account user (MANAGER_USER_ID), so only the receiver is wrong. A missing id or name accepted fails (required-member); a number or a string for an object, coerced and accepted, is non_strict (wrong-type).', covers: [SEND('receiver'), '2.5/id', '2.5/name'] }, RECEIVER),
  ],
});
