/**
 * Captured runs made by hand for the comparison's unit tests: a rule's exchanges as a server answered them, without
 * running anything.
 */
import type { Capture, CapturedExchange } from '../../src/compare/capture.js';
import type { Verdict } from '../../src/model/outcome.js';
import { summarize, type RuleResult } from '../../src/model/result.js';
import type { TargetConfig } from '../../src/model/target.js';
import { Masker } from '../../src/secrets/mask.js';

export function target(base: string, settings: Record<string, string> = {}): TargetConfig {
  return {
    kind: 'emulator', baseUrl: base, authUrl: base, chatUrl: base, capabilities: [], settings,
    credentials: { clientId: 'client-1', clientSecret: 'secret-of-the-client', redirectUri: 'https://app.example/cb' },
  };
}

export function exchange(method: string, url: string, status: number, body: unknown, o: { headers?: Record<string, string>; request?: unknown; ms?: number } = {}): CapturedExchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const headers = { ...(typeof body === 'object' ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...o.headers };
  return {
    request: { method, url, ...(o.request === undefined ? {} : { body: JSON.stringify(o.request) }) },
    response: { status, headers, text },
    durationMs: o.ms ?? 5,
  };
}

export function capture(base: string, rules: Record<string, { status?: Verdict; exchanges: CapturedExchange[]; ms?: number }>, secrets: string[] = []): Capture {
  const results: RuleResult[] = Object.entries(rules).map(([id, r]) => ({
    id, section: '4.1', level: 'must', requires: [], status: r.status ?? 'passed', title: id, duration_ms: r.ms ?? 10, detail: '', request_count: r.exchanges.length,
  }));
  const masker = new Masker();
  for (const s of secrets) masker.add(s);
  return {
    report: {
      suite: { name: 'kit', version: '0' }, target: { kind: 'emulator', base_url: base, chat_url: base }, seed: 1,
      started_at: '2026-11-28T00:00:00Z', finished_at: '2026-11-28T00:00:01Z', summary: summarize(results), results,
    },
    exchanges: new Map(Object.entries(rules).map(([id, r]) => [id, r.exchanges])),
    target: target(base),
    masker,
  };
}
