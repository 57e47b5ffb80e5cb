/**
 * `conformance hook-check <url>`: checks an integration's disconnect-hook receiver (§5.3). Sends it a genuine hook
 * (signed with CLIENT_ID and CLIENT_SECRET from the environment, as `run` reads them) and forged ones: a bad
 * signature, a foreign client_uuid (correctly signed for that uuid, so only the uuid check can catch it), and one
 * with each parameter missing. Passes (exit 0) when only the genuine hook is accepted (2xx); exit 1 otherwise. Writes
 * the reports `run` writes (report.json, junit.xml, report.html, summary.md into --out), one result per case, so a CI
 * reads a receiver's check as it reads a run.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { request } from 'undici';
import { KIT_PACKAGE } from '../../paths.js';
import { summarize, type Report, type RuleResult } from '../../model/result.js';
import { writeReports } from '../../report/write.js';
import { reportPaths } from '../run-options.js';
import { disconnectHookSignature, disconnectHookUrl, HOOK_PARAMETERS, signDisconnectHook } from '../../hook/sign.js';
import { describeTransportError } from '../../targets/http.js';
import { defineCommand } from '../command.js';
import { ConfigError, UnreachableError } from '../../errors.js';
import { integerSetting, loadEnv } from '../settings.js';

const TIMEOUT_MS = 5_000;

export interface HookCase {
  readonly name: string;
  readonly params: Record<string, string>;
  readonly shouldAccept: boolean;
}

export function hookCases(accountId: number, credentials: { clientId: string; clientSecret: string }): HookCase[] {
  const genuine = signDisconnectHook(accountId, credentials);
  const flipped = genuine.signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  const foreign = randomUUID();
  const cases: HookCase[] = [
    { name: 'bad signature', params: { ...genuine, signature: flipped }, shouldAccept: false },
    { name: 'foreign client_uuid', params: { ...genuine, client_uuid: foreign, signature: disconnectHookSignature(foreign, accountId, credentials.clientSecret) }, shouldAccept: false },
    ...HOOK_PARAMETERS.map((p) => {
      const params: Record<string, string> = { ...genuine };
      delete params[p];
      return { name: `${p} missing`, params, shouldAccept: false };
    }),
    { name: 'genuine hook', params: genuine, shouldAccept: true },
  ];
  return cases;
}

export interface HookCaseResult extends HookCase {
  readonly status: number;
  readonly ok: boolean;
  readonly durationMs: number;
  readonly startedAt: string;
}

export async function checkReceiver(url: string, cases: readonly HookCase[]): Promise<HookCaseResult[]> {
  const results: HookCaseResult[] = [];
  for (const c of cases) {
    let status: number;
    const startedAt = new Date().toISOString();
    const started = performance.now();
    try {
      const res = await request(disconnectHookUrl(url, c.params), { method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
      await res.body.dump();
      status = res.statusCode;
    } catch (err) {
      throw new UnreachableError(`cannot reach the hook receiver at ${new URL(url).origin}${new URL(url).pathname}: ${describeTransportError(err)}`);
    }
    const accepted = status >= 200 && status < 300;
    results.push({ ...c, status, ok: accepted === c.shouldAccept, durationMs: Math.round(performance.now() - started), startedAt });
  }
  return results;
}

interface HookCheckFlags {
  readonly envFile?: string;
  readonly accountId?: string;
  readonly out?: string;
  readonly junit?: string;
  readonly json?: string;
  readonly html?: string;
  readonly summary?: string;
}

/** The id of a case's result: `hook-check.bad-signature`, `hook-check.client_uuid-missing`. */
const caseId = (name: string) => `hook-check.${name.replace(/\s+/g, '-')}`;

/** The cases as a report of `run`'s form: one must rule of §5.3 per case. */
export function hookCheckReport(receiver: string, results: readonly HookCaseResult[], startedAt: string, finishedAt: string): Report {
  const rules: RuleResult[] = results.map((r) => {
    const observed = `${r.status >= 200 && r.status < 300 ? 'accepted' : 'refused'} (${r.status})`;
    return {
      id: caseId(r.name), section: '5.3', level: 'must', requires: ['hook'], status: r.ok ? 'passed' : 'failed',
      title: `the receiver ${r.shouldAccept ? 'accepts the genuine hook' : `refuses a hook with ${r.name}`}`,
      duration_ms: r.durationMs, request_count: 1,
      detail: `expected ${r.shouldAccept ? 'accepted (2xx)' : 'refused'}, observed ${observed}`,
    };
  });
  return {
    suite: { name: `${KIT_PACKAGE.name} hook-check`, version: KIT_PACKAGE.version },
    target: { kind: 'remote', base_url: receiver, chat_url: '' },
    seed: 0, started_at: startedAt, finished_at: finishedAt,
    summary: summarize(rules), results: rules, request_count: rules.length,
  };
}

export const hookCheckCommand = defineCommand<HookCheckFlags>({
  name: 'hook-check <url>',
  summary: 'test a disconnect-hook receiver',
  description: 'Sends the receiver at <url> a genuine disconnect hook (signed with CLIENT_ID and CLIENT_SECRET from '
    + 'the environment or .env), one with a bad signature, one with a foreign client_uuid and one without each '
    + 'parameter. Exit 0 when only the genuine one was accepted (2xx), 1 otherwise, 2 on a usage or configuration error, '
    + '3 when the receiver cannot be reached. Writes report.json, junit.xml, report.html and summary.md into --out, one '
    + 'result per case, as `run` does.',
  arguments: { url: 'the receiver\'s address, as the integration registered it (http or https)' },
  examples: [['conformance hook-check https://integration.example/hooks/disconnect', 'CLIENT_ID/CLIENT_SECRET from .env']],
  flags: (command) => command
    .option('--account-id <n>', 'the account id the hooks name (default: 31415926)')
    .option('--env-file <path>', 'settings file (default: .env when present)')
    .option('--out <dir>', 'where the reports go (default: reports)')
    .option('--junit <path>', 'write junit.xml here instead (default: <out>/junit.xml)')
    .option('--json <path>', 'write report.json here instead (default: <out>/report.json)')
    .option('--html <path>', 'write report.html here instead (default: <out>/report.html)')
    .option('--summary <path>', 'write summary.md here instead (default: <out>/summary.md)'),
  action: (values, [raw]) => checkHooks(raw!, values),
});

async function checkHooks(raw: string, values: HookCheckFlags): Promise<number> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('<url>', `is not a valid URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('<url>', `must be an http(s) URL, got "${raw}"`);
  const env = loadEnv(values.envFile);
  const clientId = env.CLIENT_ID?.trim();
  const clientSecret = env.CLIENT_SECRET?.trim();
  if (!clientId) throw new ConfigError('CLIENT_ID', 'is not set (the integration ID the receiver expects; see env.example)');
  if (!clientSecret) throw new ConfigError('CLIENT_SECRET', 'is not set (the secret key the receiver verifies with; see env.example)');
  const accountId = integerSetting('--account-id', values.accountId, { min: 1 }) ?? 31_415_926;
  const paths = reportPaths(values);

  const startedAt = new Date().toISOString();
  const results = await checkReceiver(url.toString(), hookCases(accountId, { clientId, clientSecret }));
  const shown = `${url.origin}${url.pathname}`;
  const written = await writeReports(hookCheckReport(shown, results, startedAt, new Date().toISOString()), { outDir: resolve(values.out ?? 'reports'), paths });
  process.stdout.write(`disconnect hook receiver ${shown}\n`);
  for (const r of results) {
    const verdict = r.status >= 200 && r.status < 300 ? 'accepted' : 'refused';
    process.stdout.write(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(20)} ${verdict} (${r.status})${r.ok ? '' : `, expected ${r.shouldAccept ? 'accepted (2xx)' : 'refused'}`}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(failed === 0 ? 'only the genuine hook was accepted\n' : `${failed} of ${results.length} cases wrong\n`);
  process.stdout.write(`reports: ${written.json}, ${written.junit}\n`);
  return failed === 0 ? 0 : 1;
}
