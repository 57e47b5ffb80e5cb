/**
 * One run of the suite kept whole for a comparison: every exchange of every rule, in the order the rule made it, not
 * the few a report keeps. The runner is not changed for it: each rule's run is wrapped so that the HTTP client, which
 * every exchange of a rule passes through, knows the rule it sends for (AsyncLocalStorage follows the rule's awaits
 * across the lanes that run side by side).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Report } from '../model/result.js';
import type { Rule } from '../model/rule.js';
import type { TargetConfig } from '../model/target.js';
import { clientOptionsFor, executeRun, maskerFor, type RunPlan } from '../runner/execute.js';
import type { Masker } from '../secrets/mask.js';
import { HttpClient } from '../targets/http.js';

/** One exchange as sent and answered, not yet masked (the comparison masks what it shows). */
export interface CapturedExchange {
  readonly request: HttpRequest;
  readonly response?: Pick<HttpResponse, 'status' | 'headers' | 'text'>;
  /** No answer: the transport's reason. */
  readonly error?: string;
  readonly durationMs: number;
  /** When it was sent (performance.now()), to tell exchanges sent side by side from exchanges sent one after another. */
  readonly startedMs?: number;
}

export interface Capture {
  readonly report: Report;
  /** The exchanges of each rule's first attempt (the one its verdict stands on), control calls left out. */
  readonly exchanges: ReadonlyMap<string, readonly CapturedExchange[]>;
  readonly target: TargetConfig;
  /** Knows every secret the run saw: what the comparison shows of this run is masked with it. */
  readonly masker: Masker;
}

/** A run as `executeRun` takes it; the comparison supplies its own client and masker. */
export type CaptureOptions = Pick<RunPlan, 'target' | 'supply' | 'rules' | 'seed' | 'runs' | 'only' | 'options'>;

interface Attempt {
  readonly rule: string;
  readonly list: CapturedExchange[];
}

/** The client of a captured run: sends as the run's own client would (rate limit, 429 retries), and keeps a copy. */
class CapturingClient extends HttpClient {
  constructor(target: TargetConfig, private readonly current: AsyncLocalStorage<Attempt>, private readonly plumbing: readonly string[]) {
    super(clientOptionsFor(target));
  }

  override async send(req: HttpRequest): Promise<HttpResponse> {
    const attempt = this.current.getStore();
    // The control API is the kit's own plumbing, not an answer of the service under comparison.
    const keep = attempt !== undefined && !this.plumbing.some((url) => req.url.startsWith(url));
    const started = performance.now();
    try {
      const res = await super.send(req);
      if (keep) attempt.list.push({ request: req, response: { status: res.status, headers: res.headers, text: res.text }, durationMs: res.durationMs, startedMs: started });
      return res;
    } catch (err) {
      if (keep) attempt.list.push({ request: req, error: (err as Error).message, durationMs: performance.now() - started, startedMs: started });
      throw err;
    }
  }
}

/** The control URLs of a target and of its sandbox: requests to them are not compared. */
function controlUrls(target: TargetConfig): string[] {
  return [target.controlUrl, target.sandbox?.controlUrl].filter((u): u is string => Boolean(u));
}

export async function captureRun(o: CaptureOptions): Promise<Capture> {
  const current = new AsyncLocalStorage<Attempt>();
  const attempts = new Map<string, CapturedExchange[]>();
  const client = new CapturingClient(o.target, current, controlUrls(o.target));
  const masker = maskerFor(o.target);
  // A failed rule is run once more (the flaky check); its verdict stands on the first attempt, and so does the comparison.
  const wrapped = o.rules.map((rule): Rule => ({
    ...rule,
    run: (t) => {
      const list: CapturedExchange[] = [];
      if (!attempts.has(rule.id)) attempts.set(rule.id, list);
      return current.run({ rule: rule.id, list }, () => rule.run(t));
    },
  }));
  try {
    const report = await executeRun({
      target: o.target, client, masker, rules: wrapped, seed: o.seed, runs: o.runs,
      ...(o.supply ? { supply: o.supply } : {}),
      ...(o.only ? { only: o.only } : {}),
      ...(o.options ? { options: o.options } : {}),
    });
    return { report, exchanges: attempts, target: o.target, masker };
  } finally {
    await client.close();
  }
}
