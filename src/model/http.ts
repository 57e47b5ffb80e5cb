/**
 * The HTTP exchange as rules see it: the request they build and the answer their checks judge.
 * src/targets sends them (undici); the runner records them for the report.
 */

export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Record<string, string>;
  /** Raw body bytes or text, sent as is. */
  readonly body?: string | Buffer;
  /**
   * The kind of credential the request carries, when its builder knows better than the recorder would guess (never
   * sent): the recorder names it on the exchange (report.json), else the kind its bearer was handed out as.
   */
  readonly credential?: string;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Record<string, string>;
  readonly text: string;
  readonly durationMs: number;
  /**
   * The request this answers, when a rule sent it through its context: checks that judge an answer against what was
   * sent (a secret echoed back, the msgid returned as ref_id) read it here instead of asking the rule to pass it on.
   */
  readonly request?: HttpRequest;
}

/**
 * A 2xx answer. Where a step only needs the exchange to have worked (a set-up step, a precondition), another 2xx than
 * the one the spec states, or one without a body, is what the reading accepts (docs/verdicts.md, "Set-up steps").
 */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}
