/**
 * Reads the environment the way every command does: the process environment first, then the env file
 * (`--env-file`, else `.env` when present), never overriding what the process already has.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from '../errors.js';
import type { Env } from '../targets/from-env.js';

export function loadEnv(envFile: string | undefined, processEnv: NodeJS.ProcessEnv = process.env): Env {
  const path = envFile ?? (existsSync('.env') ? '.env' : undefined);
  if (envFile !== undefined && !existsSync(envFile)) throw new ConfigError('--env-file', `names a file that does not exist: ${envFile}`);
  const fromFile = path ? parse(checkedEnvFile(path, envFile === undefined ? '.env' : '--env-file')) : {};
  return { ...fromFile, ...definedOnly(processEnv) };
}

/**
 * The env file's text, once every line was found to be one dotenv reads: dotenv skips a line it cannot read without a
 * word, so a typo (`CLIENT_SECRET abc`, a quote never closed) would read as a key not set, far from its cause. The
 * message names the file and line, never the line's text (it may hold a secret).
 */
function checkedEnvFile(path: string, flag: string): string {
  if (statSync(path).isDirectory()) throw new ConfigError(flag, `names a directory, not a settings file: ${path}`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(flag, `cannot be read: ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const bad = malformedLine(text);
  if (bad) throw new ConfigError(`${path}:${bad.line}`, `${bad.why} (an env file holds KEY=value lines, # comments and blank lines; see env.example)`);
  return text;
}

/** Keys as dotenv reads them, with its optional `export ` and its `KEY: value` form. */
const ASSIGNMENT = /^\s*(?:export\s+)?[\w.-]+(?:\s*=|:\s)\s*(.*)$/;

/** The first line of `text` dotenv would skip, with why; undefined when every line is read. */
export function malformedLine(text: string): { line: number; why: string } | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (/^\s*(?:#.*)?$/.test(line)) continue;
    const m = ASSIGNMENT.exec(line);
    if (!m) return { line: i + 1, why: /^\s*[\w.-]+\s*$/.test(line) ? 'is a key without "=" and a value' : 'is not a KEY=value line' };
    // A value that opens a quote it does not close on its line goes on until the line that closes it (dotenv's multi-line values).
    const quote = /^(["'`])/.exec(m[1]!)?.[1];
    if (quote === undefined || closes(m[1]!.slice(1), quote)) continue;
    const end = lines.findIndex((l, j) => j > i && closes(l, quote));
    if (end < 0) return { line: i + 1, why: `opens a ${quote} quoted value that no later line closes` };
    i = end;
  }
  return undefined;
}

function closes(text: string, quote: string): boolean {
  return new RegExp(`(?:^|[^\\\\])${quote === '`' ? '`' : quote}`).test(text);
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

export function integerSetting(key: string, raw: string | undefined, options: { min: number; max?: number }): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(key, `must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < options.min || !Number.isSafeInteger(n)) throw new ConfigError(key, `must be an integer of at least ${options.min}, got "${raw}"`);
  if (options.max !== undefined && n > options.max) throw new ConfigError(key, `must be an integer from ${options.min} to ${options.max}, got "${raw}"`);
  return n;
}
