/**
 * The judge of the model-based chat property (§4.3 as a whole): a command sequence run against the target and a model
 * of it (src/steps/chat-model.ts), the history compared with the model after every read.
 */
import type { Judge } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';

/** What one run of a command sequence showed: where the history left the model, if it did, and the lesser departures. */
export interface ModelRun {
  /** The first point where the target's history differed from the model's. */
  readonly mismatch?: string;
  /** Departures the reading calls non_strict (a conversation without messages answered 200 with none, not 204; C51). */
  readonly departures: readonly string[];
}

/** The history matched the model all along; departures alone are non_strict; a mismatch fails. */
export const modelHeld: Judge<ModelRun> = (run) => {
  if (run.mismatch !== undefined) return fail('model', run.mismatch);
  return run.departures.length > 0 ? nonStrict('model', run.departures.join('; ')) : pass('model', 'the history matched the model');
};
