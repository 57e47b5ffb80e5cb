/**
 * The browser rules (capability `browser`) need Debian's Chromium. A run that selects them on a machine without it
 * installs it first, with the same step `npm test` runs (scripts/ensure-chromium.sh), saying so on stderr; where this
 * user may not install (not root, no passwordless sudo) it says exactly what to run, and the rules are skipped with
 * that reason. Never a silent skip.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chromiumGap } from '../browser/launch.js';
import { kitPath } from '../paths.js';
import type { TargetConfig } from '../model/target.js';

export const INSTALL_COMMAND = 'sudo apt-get install -y chromium';
const INSTALL_SCRIPT = kitPath('scripts', 'ensure-chromium.sh');
/** apt-get update and the install of chromium with its libraries; a held dpkg lock must not hang the run for ever. */
const INSTALL_TIMEOUT_MS = 10 * 60_000;

/** What the decision needs to know about this machine (injected in tests). */
export interface ChromiumProbe {
  /** Why Chromium cannot be launched, or undefined when it is there. */
  missing(): string | undefined;
  /** Who may install it here: root, passwordless sudo, or nobody. */
  installer(): 'root' | 'sudo' | undefined;
  /** Installs it; rejects with what went wrong. */
  install(): Promise<void>;
}

export interface BrowserSetup {
  readonly target: TargetConfig;
  /** How many of the selected rules need the browser. */
  readonly browserRules: number;
  readonly probe: ChromiumProbe;
  /** One line on stderr. */
  readonly log: (line: string) => void;
  /** The target's configuration derived again, once Chromium is there. */
  readonly reconfigure: () => TargetConfig;
}

/**
 * Returns the target the run should use: unchanged when no selected rule needs the browser, when Chromium is there,
 * or when the browser is not wanted on this target (a remote one without CONFORMANCE_BROWSER=1); derived again after
 * an install; or with the browser gap saying what to run when Chromium cannot be installed.
 */
export async function prepareBrowser(o: BrowserSetup): Promise<TargetConfig> {
  if (o.browserRules === 0) return o.target;
  const missing = o.probe.missing();
  if (missing === undefined) return o.target;
  // The probe has the last word on Chromium; the target's own gap tells whether it wants the browser rules at all.
  const wanted = o.target.capabilities.includes('browser') || o.target.gaps?.browser === missing;
  if (!wanted) return o.target;
  const rules = `${o.browserRules} browser rule${o.browserRules === 1 ? '' : 's'}`;
  const who = o.probe.installer();
  if (!who) {
    o.log(`conformance: the ${rules} need Chromium at /usr/bin/chromium, which this user may not install (not root, no passwordless sudo): run '${INSTALL_COMMAND}', then this command again. Skipping them now.`);
    return withBrowserGap(o.target, `${missing}; this user may not install it: run \`${INSTALL_COMMAND}\`, then run again`);
  }
  o.log(`conformance: installing Debian's chromium for the ${rules} (apt-get install -y chromium${who === 'sudo' ? ' through sudo' : ''}; once, about a minute)…`);
  try {
    await o.probe.install();
  } catch (err) {
    const problem = (err as Error).message;
    o.log(`conformance: installing chromium failed: ${problem}. Run '${INSTALL_COMMAND}', then this command again. Skipping the ${rules} now.`);
    return withBrowserGap(o.target, `${missing}; installing it failed (${problem}): run \`${INSTALL_COMMAND}\`, then run again`);
  }
  const still = o.probe.missing();
  if (still !== undefined) {
    o.log(`conformance: the install finished but ${still}. Skipping the ${rules} now.`);
    return withBrowserGap(o.target, `${still}, even after installing it: run \`${INSTALL_COMMAND}\` and check its output`);
  }
  o.log('conformance: chromium installed');
  return o.reconfigure();
}

function withBrowserGap(target: TargetConfig, reason: string): TargetConfig {
  return { ...target, capabilities: target.capabilities.filter((c) => c !== 'browser'), gaps: { ...target.gaps, browser: reason } };
}

/** This machine, as it is. */
export const machineProbe: ChromiumProbe = {
  missing: () => chromiumGap(),
  installer() {
    if (process.getuid?.() === 0) return 'root';
    const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
    return sudo.status === 0 ? 'sudo' : undefined;
  },
  install: () => new Promise<void>((resolve, reject) => {
    const child = spawn('bash', [INSTALL_SCRIPT], { stdio: ['ignore', 'ignore', 'pipe'], timeout: INSTALL_TIMEOUT_MS });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      // The script announces itself first; what went wrong is its last line.
      const last = stderr.trim().split('\n').filter((l) => !l.startsWith('installing ')).at(-1);
      reject(new Error(signal ? `stopped by ${signal} after ${INSTALL_TIMEOUT_MS / 60_000} minutes` : `exit ${code}${last ? `: ${last}` : ''}`));
    });
  }),
};
