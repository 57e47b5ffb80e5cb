/**
 * A short burst of identical requests, sent at once, for the `info` rule that records the service's rate limit (§8).
 * Every request still goes through the kit's own client, so on a target with RATE_LIMIT_RPS the burst never goes past
 * that ceiling: a live account is never pushed beyond what the run was told it may send.
 */
import type { BurstObservation } from '../checks/records.js';
import type { RuleContext } from '../model/context.js';
import type { HttpRequest } from '../model/http.js';

/** At most this many requests: enough to pass the documented 7 per second, too few to get an account blocked. */
export const MAX_BURST = 12;

export async function burst(t: RuleContext, req: HttpRequest, count = MAX_BURST): Promise<BurstObservation> {
  const n = Math.min(count, MAX_BURST);
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: n }, () => t.send(req)));
  return {
    sent: n,
    elapsedMs: performance.now() - started,
    ...(t.target.rateLimitRps ? { ceilingRps: t.target.rateLimitRps } : {}),
    answers,
  };
}
