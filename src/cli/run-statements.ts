/**
 * A report's statement table (issue 37 §8): src/report/statements.ts judges each statement of the spec's inventory
 * (specs/requirements/) from the report's results and the places each statement governs (src/docs/places.ts, by the
 * committed traced run); this binds the two, for `run` and for any command that makes a report from results.
 */
import { REQUIREMENTS } from '../../specs/requirements/index.js';
import type { Report } from '../model/result.js';
import { withStatements } from '../report/statements.js';
import { committedReach, placePairs } from '../docs/places.js';

/** The report with `statements`: what this run judged of each statement of the spec. */
export function withRunStatements(report: Report): Report {
  return withStatements(report, REQUIREMENTS, placePairs(committedReach()));
}
