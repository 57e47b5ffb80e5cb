/**
 * One run of the suite kept whole for a comparison: every exchange of every rule, in the order the rule made it, not
 * the few a report keeps. The runner is not changed for it: the run's client tells of every exchange with its sender
 * (src/runner/trace.ts), the rule attempt or the run resource it was sent for (src/rule-scope.ts).
 */
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Report } from '../model/result.js';
import type { TargetConfig } from '../model/target.js';
import { clientOptionsFor, executeRun, maskerFor, type RunPlan } from '../runner/execute.js';
import { ObservingClient } from '../runner/trace.js';
import type { Masker } from '../secrets/mask.js';

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

/** The control URLs of a target and of its sandbox: requests to them are not compared. */
function controlUrls(target: TargetConfig): string[] {
  return [target.controlUrl, target.sandbox?.controlUrl].filter((u): u is string => Boolean(u));
}

export async function captureRun(o: CaptureOptions): Promise<Capture> {
  const exchanges = new Map<string, CapturedExchange[]>();
  const plumbing = controlUrls(o.target);
  // A failed rule is run once more (the flaky check); its verdict stands on the first attempt, and so does the
  // comparison. What a run resource's opener sent is the run's set-up, shared by the rules that ask for it: no rule's.
  // The control API is the kit's own plumbing, not an answer of the service under comparison.
  const client = new ObservingClient(clientOptionsFor(o.target), ({ sender, request, response, error, durationMs, startedMs }) => {
    if (!sender || !('rule' in sender) || sender.attempt !== 0 || plumbing.some((url) => request.url.startsWith(url))) return;
    const list = exchanges.get(sender.rule) ?? [];
    list.push({ request, ...(response ? { response: { status: response.status, headers: response.headers, text: response.text } } : { error: error ?? 'no answer' }), durationMs, startedMs });
    exchanges.set(sender.rule, list);
  });
  const masker = maskerFor(o.target);
  try {
    const report = await executeRun({
      target: o.target, client, masker, rules: o.rules, seed: o.seed, runs: o.runs,
      ...(o.supply ? { supply: o.supply } : {}),
      ...(o.only ? { only: o.only } : {}),
      ...(o.options ? { options: o.options } : {}),
    });
    return { report, exchanges, target: o.target, masker };
  } finally {
    await client.close();
  }
}
