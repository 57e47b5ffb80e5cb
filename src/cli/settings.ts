/**
 * Reads the environment the way every command does: the process environment first, then the env file
 * (`--env-file`, else `.env` when present), never overriding what the process already has.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { ConfigError } from '../errors.js';
import type { Env } from '../targets/from-env.js';

export function loadEnv(envFile: string | undefined, processEnv: NodeJS.ProcessEnv = process.env): Env {
  const path = envFile ?? (existsSync('.env') ? '.env' : undefined);
  if (envFile !== undefined && !existsSync(envFile)) throw new ConfigError('--env-file', `names a file that does not exist: ${envFile}`);
  const fromFile = path ? parse(readFileSync(path)) : {};
  return { ...fromFile, ...definedOnly(processEnv) };
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
