/**
 * Checks of `info` rules that record how the target answers where the spec shows nothing: the error member of a token
 * refusal, the media type and keys of a body, the statuses of a burst. They report; they never judge.
 */
import type { Check, Judge } from '../model/check.js';
import { observed } from '../model/outcome.js';
import type { HttpResponse } from '../model/http.js';
import { mediaType, parseJson } from './json.js';

function objectOf(res: HttpResponse): Record<string, unknown> | undefined {
  const body = parseJson(res);
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
}

/** The status, media type and RFC 6749 §5.2 `error` member of a refusal (or the problem+json `title` when there is none). */
export const errorMemberObserved: Check = (res) => {
  const body = objectOf(res);
  const error = typeof body?.error === 'string' ? `error=${body.error}` : 'no error member';
  const title = typeof body?.title === 'string' ? `, title=${body.title}` : '';
  return observed('error member', `${res.status} ${mediaType(res) || 'no Content-Type'}, ${error}${title}`);
};

/** The media type and top-level keys of a body. */
export const mediaTypeAndKeysObserved: Check = (res) => {
  const body = objectOf(res);
  const keys = body ? Object.keys(body).sort().join(', ') : 'not a JSON object';
  return observed('media type and keys', `${res.status} ${mediaType(res) || 'no Content-Type'}; keys: ${keys}`);
};

/** What a burst of requests got: how many of each status, and the first non-2xx with its Retry-After. */
export interface BurstObservation {
  readonly sent: number;
  readonly elapsedMs: number;
  /** The client-side ceiling the kit applied (RATE_LIMIT_RPS), when it had one. */
  readonly ceilingRps?: number;
  readonly answers: readonly HttpResponse[];
}

export const burstObserved: Judge<BurstObservation> = (b) => {
  const counts = new Map<number, number>();
  for (const r of b.answers) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const tally = [...counts].sort(([a], [c]) => a - c).map(([s, n]) => `${n}×${s}`).join(', ');
  const refused = b.answers.find((r) => r.status < 200 || r.status >= 300);
  const first = refused ? `first non-2xx ${refused.status}, Retry-After ${refused.headers['retry-after'] ?? 'absent'}` : 'no non-2xx';
  const rate = (b.sent / Math.max(b.elapsedMs, 1)) * 1000;
  const ceiling = b.ceilingRps ? `; the kit's RATE_LIMIT_RPS=${b.ceilingRps} capped the burst, so the service's limit above it was not probed` : '';
  return observed('burst', `${b.sent} requests in ${Math.round(b.elapsedMs)} ms (${rate.toFixed(1)}/s): ${tally}; ${first}${ceiling}`);
};
