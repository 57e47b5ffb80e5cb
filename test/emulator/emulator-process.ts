/**
 * A standalone `conformance emulator` in a child process, once it printed its settings: what an integrator runs.
 */
import { spawn } from 'node:child_process';
import { BIN } from '../cli/helpers.js';

export interface EmulatorProcess {
  /** The printed settings, `KEY=value` lines of stdout. */
  readonly settings: Record<string, string>;
  readonly stdout: string;
  readonly stderr: string;
  /** Ctrl-C: waits until it has stopped (and written its state). */
  stop(): Promise<void>;
}

export async function emulatorProcess(args: readonly string[], env: NodeJS.ProcessEnv = { PATH: process.env.PATH, CI: 'true' }): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, ['--', BIN, 'emulator', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await closed;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      // The last line it writes at start, after every setting is on stdout.
      child.stderr.on('data', (d) => { stderr += d; if (/Ctrl-C stops it/.test(stderr)) resolve(); });
      child.once('exit', (code) => reject(new Error(`the emulator ended (${code}): ${stderr}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const settings = Object.fromEntries(stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  return { settings, stdout, get stderr() { return stderr; }, stop };
}
