/**
 * A step before the observation a rule is about did not go as the spec says: the rule cannot reach a verdict
 * on its own point, and ends `errored` with this reason (the rule that checks that step reports the failure).
 */
export class Precondition extends Error {
  readonly code = 'ERR_PRECONDITION';
}
