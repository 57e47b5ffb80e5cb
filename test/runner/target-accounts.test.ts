/**
 * The account the target says it is (issue 38 §1), read before a run's rules with each bearer it may read with: the run's
 * access token (the control API's pair, LONG_LIVED_TOKEN from the settings, or the page's pair), LONG_LIVED_TOKEN and a restricted
 * user's token; what the account API answered is what report.json records and a certificate binds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumGap } from '../../src/browser/launch.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { emulatorSettings } from '../../src/needs/emulator-settings.js';
import { clientFor, maskerFor } from '../../src/runner/execute.js';
import { readTargetAccounts } from '../../src/runner/target-accounts.js';
import { ControlClient } from '../../src/targets/control.js';
import { targetFromEnv } from '../../src/targets/from-env.js';
import type { TargetConfig } from '../../src/model/target.js';

let emulator: RunningEmulator;
let settings: Record<string, string>;
let own: { id: number; subdomain: string };
beforeAll(async () => {
  emulator = await startEmulator({ seed: 5 });
  settings = await emulatorSettings(emulator);
  const res = await fetch(`${settings.CONTROL_URL}/accounts`);
  const { accounts } = (await res.json()) as { accounts: { id: number; subdomain: string; base_url?: string }[] };
  own = accounts.find((a) => a.base_url === undefined || a.base_url.replace(/\/+$/, '') === settings.BASE_URL) ?? accounts[0]!;
});
afterAll(() => emulator?.close());

async function accountsOf(target: TargetConfig) {
  const client = clientFor(target);
  const masker = maskerFor(target);
  try {
    const control = target.controlUrl ? new ControlClient(target.controlUrl, client, masker, target.credentials.clientId) : undefined;
    return await readTargetAccounts({ target, client, control, masker, seed: 1, runs: 1, runId: 'run-accounts' });
  } finally {
    await client.close();
  }
}

describe('the account the target says it is', () => {
  const withoutTokens = () => {
    const { LONG_LIVED_TOKEN: _l, RESTRICTED_ACCESS_TOKEN: _r, RESTRICTED_USER_ID: _u, ...env } = settings;
    return env;
  };
  const read = (credential: string) => ({ base_url: settings.BASE_URL, credential, id: own.id, subdomain: own.subdomain });

  it('is read with the control API\'s fresh token when the settings configure no token', async () => {
    expect(await accountsOf(targetFromEnv(withoutTokens(), 'remote'))).toEqual([read('oauth-access')]);
  });

  it('is read with each token of the settings, LONG_LIVED_TOKEN once when it is the run\'s token', async () => {
    expect(settings.LONG_LIVED_TOKEN && settings.RESTRICTED_ACCESS_TOKEN).toBeTruthy();
    expect(await accountsOf(targetFromEnv(settings, 'remote'))).toEqual([read('long-lived'), read('restricted-user')]);
    const { CONTROL_URL: _c, ...noControl } = settings;
    expect(await accountsOf(targetFromEnv(noControl, 'remote'))).toEqual([read('long-lived'), read('restricted-user')]);
  });

  it.skipIf(chromiumGap() !== undefined)('is read with the run\'s pair from the access-granting page when only the page can give a token', async () => {
    const { CONTROL_URL: _c, ...env } = withoutTokens();
    expect(env.ADMIN_LOGIN && env.ADMIN_PASSWORD).toBeTruthy();
    expect(await accountsOf(targetFromEnv({ ...env, TOKEN_STORE: '/nonexistent/tokens.json' }, 'remote'))).toEqual([read('oauth-access')]);
  });

  it('says why, and goes on, when the account API does not answer with an account', async () => {
    const accounts = await accountsOf(targetFromEnv({ ...settings, LONG_LIVED_TOKEN: 'not-a-token' }, 'remote'));
    expect(accounts).toEqual([
      { base_url: settings.BASE_URL, credential: 'long-lived', error: expect.stringMatching(/^GET \/api\/v4\/account answered 401/) },
      read('restricted-user'),
    ]);
  });

  it('asks no operator for a token', async () => {
    // No control API, no token in the settings or the store, no login for the page: only an operator could give one.
    const { CONTROL_URL: _c, ADMIN_LOGIN: _l, ADMIN_PASSWORD: _p, ...env } = withoutTokens();
    expect(await accountsOf({ ...targetFromEnv({ ...env, TOKEN_STORE: '/nonexistent/tokens.json' }, 'remote'), interactive: true })).toEqual([]);
  });
});
