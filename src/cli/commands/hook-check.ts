/**
 * `conformance hook-check <url>`: checks an integration's disconnect-hook receiver (§5.3). Sends it a genuine hook
 * (signed with CLIENT_ID and CLIENT_SECRET from the environment, as `run` reads them) and forged ones: a bad
 * signature, a foreign client_uuid (correctly signed for that uuid, so only the uuid check can catch it), and one
 * with each parameter missing. Passes (exit 0) when only the genuine hook is accepted (2xx); exit 1 otherwise.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
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
}

export async function checkReceiver(url: string, cases: readonly HookCase[]): Promise<HookCaseResult[]> {
  const results: HookCaseResult[] = [];
  for (const c of cases) {
    let status: number;
    try {
      const res = await request(disconnectHookUrl(url, c.params), { method: 'GET', headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
      await res.body.dump();
      status = res.statusCode;
    } catch (err) {
      throw new UnreachableError(`cannot reach the hook receiver at ${new URL(url).origin}${new URL(url).pathname}: ${describeTransportError(err)}`);
    }
    const accepted = status >= 200 && status < 300;
    results.push({ ...c, status, ok: accepted === c.shouldAccept });
  }
  return results;
}

interface HookCheckFlags {
  readonly envFile?: string;
  readonly accountId?: string;
}

export const hookCheckCommand = defineCommand<HookCheckFlags>({
  name: 'hook-check <url>',
  summary: 'test a disconnect-hook receiver',
  description: 'Sends the receiver at <url> a genuine disconnect hook (signed with CLIENT_ID and CLIENT_SECRET from '
    + 'the environment or .env), one with a bad signature, one with a foreign client_uuid and one without each '
    + 'parameter. Exit 0 when only the genuine one was accepted (2xx), 1 otherwise, 3 when the receiver cannot be reached.',
  arguments: { url: 'the receiver\'s address, as the integration registered it (http or https)' },
  examples: [['conformance hook-check https://integration.example/hooks/disconnect', 'CLIENT_ID/CLIENT_SECRET from .env']],
  flags: (command) => command
    .option('--account-id <n>', 'the account id the hooks name (default: 31415926)')
    .option('--env-file <path>', 'settings file (default: .env when present)'),
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

  const results = await checkReceiver(url.toString(), hookCases(accountId, { clientId, clientSecret }));
  const shown = `${url.origin}${url.pathname}`;
  process.stdout.write(`disconnect hook receiver ${shown}\n`);
  for (const r of results) {
    const verdict = r.status >= 200 && r.status < 300 ? 'accepted' : 'refused';
    process.stdout.write(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(20)} ${verdict} (${r.status})${r.ok ? '' : `, expected ${r.shouldAccept ? 'accepted (2xx)' : 'refused'}`}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(failed === 0 ? 'only the genuine hook was accepted\n' : `${failed} of ${results.length} cases wrong\n`);
  return failed === 0 ? 0 : 1;
}
