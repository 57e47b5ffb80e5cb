/**
 * Flag parsing with node:util, turning its errors into UsageError that names the flag.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, command: string) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (err) {
    const e = err as { code?: string; message: string };
    if (e.code?.startsWith('ERR_PARSE_ARGS')) throw new UsageError(`conformance ${command}: ${e.message}`);
    throw err;
  }
}

export function oneOf<V extends string>(flag: string, value: string | undefined, allowed: readonly V[], fallback: V): V {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as V;
}
