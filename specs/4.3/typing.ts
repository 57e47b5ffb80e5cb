/**
 * §4.3 Chat interface: Typing indicator.
 *
 * Points of the chat interface (and of §7 errors) the spec leaves open, recorded by `info` rules and never judged:
 * typing for a conversation that does not exist, an outgoing message whose sender.ref_id names nobody, a react whose
 * user.ref_id names nobody, and the structure of one error body of each endpoint family.
 */
import {
  applyCase, caseReading, chatRule, chatSweepRule, defineGroup, describeCase, type FieldCase, fieldCaseArb, refusalChecks, scenarioRule, status, statusObserved, step, uniqueId,
} from '../kit.js';
import { type ClientMessage, clientMessage, TYPING_CASES, TYPING_FIELDS, TYPING_VALID } from './support.js';

export default defineGroup({
  heading: 'Typing indicator',
  defaults: { requires: [] },
  rules: [
    // ---- typing
    scenarioRule<ClientMessage>(
      { id: 'chat.typing.accepted', title: 'Typing answers 204 with and without duration_ms (default 5000 ms)',
        reading: 'duration_ms is optional with a default of 5000 ms (§8); 200 instead of 204 is non_strict.', covers: ['4.3/Typing indicator', '8/Typing duration default'] },
      {
        setup: clientMessage,
        steps: [
          step('without duration_ms', (_t, f) => f.s.typing({ conversation_id: f.conv, sender: { id: f.client.id } }), [status(204)]),
          step('with duration_ms', (_t, f) => f.s.typing({ conversation_id: f.conv, duration_ms: 3000, sender: { id: f.client.id } }), [status(204)]),
        ],
      },
    ),
    chatSweepRule<FieldCase>(
      { id: 'chat.typing.invalid', title: 'Typing without conversation_id or sender.id, or with duration_ms not an integer, is refused with 400',
        reading: 'The typing body names conversation_id and sender[id] unmarked beside the optional duration_ms: missing and accepted is non_strict (unmarked-member); a value of another JSON type ("5000") coerced and accepted is non_strict (wrong-type).',
        covers: ['4.3/Typing indicator'] },
      {
        named: TYPING_CASES,
        cases: () => fieldCaseArb(TYPING_FIELDS),
        send: (s, c) => s.typing(applyCase(TYPING_VALID, c)),
        expect: (c) => refusalChecks(caseReading(c)),
        label: describeCase,
      },
    ),
    chatRule(
      { id: 'chat.typing.unknown-conversation', level: 'info', requires: ['write'],
        title: 'What typing for a conversation_id never used gets',
        reading: '§4.3 typing: "Response 204 (event accepted)"; what an unknown conversation gets is not stated. Reported, not judged.',
        covers: ['4.3/Typing indicator'] },
      {
        connect: true,
        send: (s) => s.typing({ conversation_id: uniqueId(s.t, 'never-used'), sender: { id: s.client().id } }),
        expect: [statusObserved('typing, unknown conversation', { accepted: 'accepted', refused: 'refused' })],
      },
    ),
  ],
});
