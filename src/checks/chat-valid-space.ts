/**
 * How a case of a chat route's valid space (generators/chat-valid-space.ts) is judged. Whatever the case, a 5xx fails
 * (the runner's policy, docs/verdicts.md); beyond that the case's own reading: an optional member left out is a
 * request the spec accepts (`status-code`: a refusal fails, unless the reading of the member calls it a lesser
 * departure), a reference §7 answers 404 for (`status-code`: another 4xx non_strict, a success fails), and a reference
 * or an emptied array the spec is silent on (`robustness`: any 2xx or 4xx).
 */
import type { Check } from '../model/check.js';
import { spaceExpectation, type SpaceCase } from '../../generators/chat-valid-space.js';
import { noServerError, status } from './status.js';

/** The checks of one case's answer; `accepted` is the route's stated success code (200, or 204 for typing). */
export function spaceCaseChecks(c: SpaceCase, accepted: number): Check[] {
  switch (spaceExpectation(c)) {
    case 'accepted': return [status(accepted, c.kind === 'absent' && c.refusal ? { refused: c.refusal } : {})];
    case 'not-found': return [status(404)];
    case 'either': return [noServerError];
  }
}
