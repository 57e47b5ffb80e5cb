/**
 * Runs the real `conformance` command in a child process, as a user would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Children still running, ended with the test worker that started them (never by a clock: see `conformance`). */
const running = new Set<ChildProcess>();
process.once('exit', () => { for (const child of running) child.kill('SIGKILL'); });

export interface ConformanceOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** The child's process, for a test that signals it (an interrupted run); otherwise as `conformance`. */
export function startConformance(args: string[], options: ConformanceOptions = {}): { readonly child: ChildProcess; readonly done: Promise<CommandResult>; output(): CommandResult } {
  const child = spawn(process.execPath, ['--', BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH, CI: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done, output: () => ({ code: child.exitCode, stdout, stderr }) };
}

export function conformance(args: string[], options: ConformanceOptions = {}): Promise<CommandResult> {
  return startConformance(args, options).done;
}

/** How much of a secret an output may hold at most without failing: less than this, beside its masked prefix. */
export const SECRET_WINDOW = 12;

/**
 * A finder of every secret of which some SECRET_WINDOW-character window appears in a text, each named by its masked
 * prefix (the finding must not show more of it than the outputs may). Windows several secrets share are structure (a JWT's header, a common
 * payload prefix), not secret, and are not looked for. Built once for many texts.
 */
export function secretWindows(secrets: readonly string[]): (text: string) => string[] {
  const owner = new Map<string, string | null>();
  for (const s of new Set(secrets)) {
    for (let i = 0; i + SECRET_WINDOW <= s.length; i += 1) {
      const w = s.slice(i, i + SECRET_WINDOW);
      const known = owner.get(w);
      owner.set(w, known === undefined || known === s ? s : null);
    }
  }
  return (text) => {
    const found = new Set<string>();
    for (const [run] of text.matchAll(/[A-Za-z0-9._~+/=%-]{12,}/g)) {
      for (let i = 0; i + SECRET_WINDOW <= run.length; i += 1) {
        const s = owner.get(run.slice(i, i + SECRET_WINDOW));
        if (s) found.add(`${s.slice(0, 4)}…`);
      }
    }
    return [...found];
  };
}


/** A standalone `conformance emulator --tls` in a child process, once it printed its settings and its CA's path. */
export async function tlsEmulatorProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--', BIN, 'emulator', '--tls', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = async () => {
    child.kill('SIGTERM');
    if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('close', resolve));
  };
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => { stderr += d; if (stderr.includes('CA certificate')) resolve(); });
      child.on('exit', (code) => reject(new Error(`the emulator ended (${code}): ${stderr}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { stdout, stderr, stop };
}
