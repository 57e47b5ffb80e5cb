/**
 * How long to wait before retrying an answer of 429: shared by the kit's HTTP client (src/targets/rate-limit.ts) and
 * the browser's requests (src/browser/shared-context.ts), so both honour Retry-After alike.
 */

/** Delay before retrying a 429: Retry-After (seconds or an HTTP date) when given, else exponential; capped. */
export function retryDelayMs(retryAfter: string | undefined, attempt: number, capMs = 30_000): number {
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, capMs);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), capMs);
  }
  return Math.min(1000 * 2 ** attempt, capMs);
}
