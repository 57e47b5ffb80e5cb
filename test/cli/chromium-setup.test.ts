/**
 * When a run selects browser rules and Chromium is missing: install it and say so, or, when this user may not,
 * say exactly what to run and skip the rules with that reason. The machine is a fake probe: no apt-get here.
 */
import { describe, expect, it } from 'vitest';
import { INSTALL_COMMAND, prepareBrowser, type ChromiumProbe } from '../../src/cli/chromium-setup.js';
import type { TargetConfig } from '../../src/model/target.js';

const MISSING = 'Chromium is not installed at /usr/bin/chromium (apt-get install -y chromium)';

function target(browser: 'there' | 'missing' | 'not wanted'): TargetConfig {
  return {
    kind: 'emulator', baseUrl: 'http://127.0.0.1:1', authUrl: 'http://127.0.0.1:1', chatUrl: 'http://127.0.0.1:1',
    credentials: { clientId: 'id', clientSecret: 'secret', redirectUri: 'https://r.example/cb' },
    capabilities: browser === 'there' ? ['write', 'browser'] : ['write'],
    gaps: browser === 'missing' ? { browser: MISSING } : browser === 'not wanted' ? { browser: 'browser rules are not part of this run (set CONFORMANCE_BROWSER=1 to run them)' } : {},
  };
}

/** A machine without Chromium until `install` succeeds; records what was asked of it. */
function machine(o: { installer: 'root' | 'sudo' | undefined; installWorks?: boolean; installFails?: string; present?: boolean }) {
  let present = o.present ?? false;
  const calls: string[] = [];
  const probe: ChromiumProbe = {
    missing: () => (present ? undefined : MISSING),
    installer: () => o.installer,
    install: async () => {
      calls.push('install');
      if (o.installFails) throw new Error(o.installFails);
      present = o.installWorks ?? true;
    },
  };
  return { probe, calls };
}

async function prepare(start: TargetConfig, browserRules: number, probe: ChromiumProbe) {
  const log: string[] = [];
  const reconfigured = { ...target('there'), baseUrl: 'http://reconfigured' };
  const result = await prepareBrowser({ target: start, browserRules, probe, log: (l) => log.push(l), reconfigure: () => reconfigured });
  return { result, log, reconfigured };
}

describe('Chromium for the browser rules of a run', () => {
  it('installs it when missing and this user may (root), saying so, then derives the target again', async () => {
    const { probe, calls } = machine({ installer: 'root' });
    const { result, log, reconfigured } = await prepare(target('missing'), 7, probe);
    expect(calls).toEqual(['install']);
    expect(result).toBe(reconfigured);
    expect(log[0]).toMatch(/^conformance: installing Debian's chromium for the 7 browser rules/);
    expect(log.at(-1)).toBe('conformance: chromium installed');
  });

  it('installs through passwordless sudo too', async () => {
    const { probe, calls } = machine({ installer: 'sudo' });
    const { log } = await prepare(target('missing'), 1, probe);
    expect(calls).toEqual(['install']);
    expect(log[0]).toContain('for the 1 browser rule (apt-get install -y chromium through sudo');
  });

  it('says exactly what to run when this user may not install, and skips the rules with that reason', async () => {
    const { probe, calls } = machine({ installer: undefined });
    const start = target('missing');
    const { result, log } = await prepare(start, 7, probe);
    expect(calls).toEqual([]);
    expect(log).toHaveLength(1);
    expect(log[0]).toContain(`run '${INSTALL_COMMAND}', then this command again`);
    expect(result.capabilities).not.toContain('browser');
    expect(result.gaps?.browser).toContain(`run \`${INSTALL_COMMAND}\``);
    expect(result.gaps?.browser).toContain('may not install it');
    expect(start.gaps?.browser).toBe(MISSING); // the caller's configuration is not changed under it
  });

  it('skips with the reason when the install fails, or finishes without Chromium', async () => {
    const failing = machine({ installer: 'root', installFails: 'exit 100: E: Unable to locate package chromium' });
    const failed = await prepare(target('missing'), 7, failing.probe);
    expect(failed.result.gaps?.browser).toContain('installing it failed (exit 100: E: Unable to locate package chromium)');
    expect(failed.log.at(-1)).toContain(`Run '${INSTALL_COMMAND}'`);

    const hollow = machine({ installer: 'root', installWorks: false });
    const still = await prepare(target('missing'), 7, hollow.probe);
    expect(still.result.gaps?.browser).toContain('even after installing it');
    expect(still.result.capabilities).not.toContain('browser');
  });

  it('does nothing when no selected rule needs the browser, when Chromium is there, or when the target does not want it', async () => {
    for (const [start, rules, present] of [[target('missing'), 0, false], [target('there'), 7, true], [target('not wanted'), 7, false]] as const) {
      const { probe, calls } = machine({ installer: 'root', present });
      const { result, log } = await prepare(start, rules, probe);
      expect(result).toBe(start);
      expect(calls).toEqual([]);
      expect(log).toEqual([]);
    }
  });
});

describe('a run on a machine where Chromium cannot be installed', () => {
  it('skips the browser rules with what to run, and runs the others', async () => {
    const { performRun } = await import('../../src/cli/perform-run.js');
    const { runCommandOptions } = await import('../../src/cli/run-options.js');
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const out = await mkdtemp(join(tmpdir(), 'conformance-nochromium-'));
    const { probe, calls } = machine({ installer: undefined });
    const options = await runCommandOptions({ only: 'oauth.page.deny,oauth.token.code.wrong', seed: '1', runs: '2', out });
    const { report } = await performRun(options, probe);
    expect(calls).toEqual([]);
    const byId = Object.fromEntries(report.results.map((r) => [r.id, r]));
    expect(byId['oauth.page.deny']?.status).toBe('skipped');
    expect(byId['oauth.page.deny']?.detail).toContain(`run \`${INSTALL_COMMAND}\``);
    expect(byId['oauth.token.code.wrong']?.status).toBe('passed');
  });
});
