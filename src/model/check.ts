/**
 * Checks: small named judgements of one observed thing, each producing one Finding. A `Check` judges an HTTP answer;
 * a `Judge<S>` judges anything else a rule observes (a redirect's query, a received hook, a value a step returned).
 */
import type { HttpResponse } from './http.js';
import type { Finding } from './outcome.js';

export type Judge<S> = (subject: S) => Finding;

export type Check = Judge<HttpResponse>;

/**
 * The same judges, their findings named after what they judged (`old secret: status 400`, `missing user.id: status
 * 400`): for a rule that judges several observations alike, instead of rewriting findings by hand.
 */
export function labelled<S>(label: string, judges: readonly Judge<S>[]): Judge<S>[] {
  return judges.map((judge) => (subject: S) => {
    const finding = judge(subject);
    return { ...finding, check: `${label}: ${finding.check}` };
  });
}
