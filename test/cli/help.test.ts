/**
 * The command line as a new user meets it: --help on every command (exit 0, its flags, an example), --version,
 * the nearest flag for a typo, and one clean error line with exit 2 naming the flag. Most cases call main in this
 * process (the parsing is the same); a few run the bin, as a user would.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMANDS, main, oneLine } from '../../src/cli/main.js';
import { EXIT_UNJUDGED } from '../../src/cli/exit-code.js';
import { SIGNAL_EXIT_CODE } from '../../src/runner/interrupt.js';
import { BIN, conformance } from './helpers.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Each command as commander sees it: its name and the long flags it shows in its help. */
const commands = COMMANDS.map((make) => make({ exitCode: 0 })).map((c) => ({
  name: c.name(),
  flags: c.options.filter((o) => !o.hidden).map((o) => o.long!),
}));

const EXPECTED_FLAGS: Record<string, readonly string[]> = {
  run: ['--target', '--shape', '--profile', '--only', '--exclude', '--seed', '--runs', '--strict', '--allow-unjudged', '--baseline', '--out', '--junit', '--json', '--html', '--summary', '--env-file', '--shard', '--budget', '--wait', '--variation', '--dry-run'],
  compare: ['--primary', '--candidate', '--secondary', '--noise-runs', '--profile', '--only', '--seed', '--runs', '--out', '--fail-on', '--fault', '--variation'],
  certify: ['--target', '--shape', '--seed', '--runs', '--strict', '--baseline', '--out', '--junit', '--json', '--html', '--summary', '--env-file', '--wait', '--from', '--key'],
  merge: ['--out', '--strict', '--allow-unjudged'],
  'verify-certificate': ['--public-key', '--report'],
  keygen: ['--out'],
  authorize: ['--listen', '--token-store', '--timeout', '--env-file'],
  emulator: ['--host', '--port', '--fault', '--variation', '--shape', '--account-domain', '--state', '--tls', '--tls-dir', '--tls-host', '--accept-machine-time'],
  'hook-check': ['--account-id', '--env-file', '--out', '--junit', '--json', '--html', '--summary'],
  rules: ['--json'],
  faults: [],
  variations: [],
  openapi: ['--out'],
  docs: ['--out', '--no-trace'],
  clean: ['--env-file', '--run', '--disconnect'],
};

describe('--help', () => {
  it('covers the eleven commands with the flags of docs/design.md §3 and the README', () => {
    expect(Object.fromEntries(commands.map((c) => [c.name, c.flags]))).toEqual(EXPECTED_FLAGS);
  });

  for (const { name, flags } of commands) {
    it(`${name} --help: exit 0, every flag and an example on stdout`, async () => {
      const r = await cli(name, '--help');
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain(`Usage: conformance ${name}`);
      for (const flag of [...flags, '--help']) expect(r.stdout).toContain(flag);
      expect(r.stdout).toMatch(new RegExp(`Examples:\\n  \\$ conformance ${name}`));
    });
  }

  it('conformance --help and conformance help <command> list the commands and print the command help', async () => {
    const top = await cli('--help');
    expect(top.code).toBe(0);
    for (const { name } of commands) expect(top.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(top.stdout).toContain('Exit codes: 0');
    const sub = await cli('help', 'merge');
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('Usage: conformance merge [options] <reports...>');
  });

  it('every exit code the kit can end with is in the README\'s table and in conformance --help', async () => {
    // The codes the errors carry, the unjudged run's, the signals': every way a command ends.
    const errors = readFileSync(new URL('../../src/errors.ts', import.meta.url), 'utf8');
    const codes = new Set([0, 1, EXIT_UNJUDGED, ...[...errors.matchAll(/exitCode = (\d+)/g)].map((m) => Number(m[1])), ...Object.values(SIGNAL_EXIT_CODE)]);
    expect([...codes].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 130, 143]);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('Exit codes (every command'));
    const help = (await cli('--help')).stdout;
    const epilogue = help.slice(help.indexOf('Exit codes:'));
    for (const code of codes) {
      expect(table, `README: exit ${code}`).toMatch(new RegExp(`^\\| ${code} \\| \\S`, 'm'));
      expect(epilogue, `--help: exit ${code}`).toMatch(new RegExp(`(^|[ ,])${code} [a-z(]`, 'm'));
    }
  });

  it('conformance without a command prints the help on stderr and exits 2', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Commands:');
  });

  it('--version prints the version of package.json', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${pkg.version}\n`);
  });
});

describe('mistakes: one clean line on stderr, exit 2', () => {
  const cases: [argv: string[], line: string][] = [
    [['run', '--sed', '1'], "conformance run: unknown option '--sed'; did you mean '--seed'?"],
    [['run', '--seed'], "conformance run: option '--seed <n>' argument missing"],
    [['run', '--seed', 'abc'], 'conformance run: --seed must be an integer, got "abc"'],
    [['run', '--profile', 'slow'], "conformance run: option '--profile <name>' argument 'slow' is invalid. Allowed choices are quick, full, soak."],
    [['run', 'extra'], "conformance run: too many arguments for 'run'. Expected 0 arguments but got 1."],
    [['certify', '--only', 'oauth.*'], 'conformance certify: --only does not apply to certify: a certificate covers every rule'],
    [['certify', '--from', 'r.json', '--seed', '1'], 'conformance certify: --seed does not apply with --from: the merged report is certified as it is'],
    [['emulator', '--prot', '1'], "conformance emulator: unknown option '--prot'; did you mean '--port'?"],
    [['emulator', '--fault', 'no-such-fault'], 'conformance emulator: --fault names no fault: no-such-fault (see `conformance faults`)'],
    [['hook-check'], "conformance hook-check: missing required argument 'url'"],
    [['merge'], "conformance merge: missing required argument 'reports'"],
    [['rules', '--jsno'], "conformance rules: unknown option '--jsno'; did you mean '--json'?"],
    [['rn'], "conformance: unknown command 'rn'; did you mean 'run'?"],
  ];
  for (const [argv, line] of cases) {
    it(argv.join(' '), async () => {
      const r = await cli(...argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`${line}\n`);
    });
  }

  it('joins commander\'s suggestions into the line, however many there are', () => {
    expect(oneLine("error: unknown option '--s'\n(Did you mean one of --seed, --shard?)")).toBe("unknown option '--s'; did you mean '--seed' or '--shard'?");
  });
});

describe('the bin, as a user runs it', () => {
  it('run --help exits 0 with the flags; --version prints the version; a typo names the nearest flag', async () => {
    const [help, version, typo] = await Promise.all([
      conformance(['run', '--help']),
      conformance(['--version']),
      conformance(['run', '--sed', '1']),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--seed <n>');
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe("conformance run: unknown option '--sed'; did you mean '--seed'?\n");
  });

  it('keeps --env-file for itself when started through its shebang (Node 20 reads --env-file anywhere in argv otherwise)', async () => {
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(BIN, ['run', '--env-file', '/nonexistent/.env'], { env: { PATH: process.env.PATH } }, (err, _stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr });
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('conformance run: --env-file names a file that does not exist: /nonexistent/.env\n');
  });
});
