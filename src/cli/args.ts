/**
 * Checks of flag values that commander leaves to the command: a value that may also come from the environment, and
 * repeatable flags.
 */
import type { Command } from 'commander';
import { ConfigError, UsageError } from '../errors.js';

/** `value` must be one of `allowed`; `key` names where it came from (the flag, or the environment key). */
export function oneOf<V extends string>(key: string, value: string | undefined, allowed: readonly V[], fallback: V): V {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(key, `must be one of ${allowed.join(', ')}; got "${value}"`);
  return value as V;
}

/** Argument parser of a repeatable flag (`--fault a --fault b`). */
export function collect(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** Whether the user typed this flag (camelCased key), as opposed to a default. */
export function given(command: Command, key: string): boolean {
  return command.getOptionValueSource(key) === 'cli';
}

/** A value that is itself a flag (`--out --dry-run`): commander takes it as the value; the user meant two flags. */
const FLAG_LIKE = /^--?[A-Za-z]/;

/**
 * Refuses a flag whose value looks like a flag (`--out --dry-run` would write the reports into a folder named
 * `--dry-run` and run for real): a usage error naming the flag. No value of the kit's flags starts with a dash and a
 * letter; a negative number (`--seed -1`) is left to the flag's own check.
 */
export function refuseFlagLikeValues(command: Command): void {
  for (const option of command.options) {
    if (!option.required && !option.optional) continue;
    const key = option.attributeName();
    if (command.getOptionValueSource(key) !== 'cli') continue;
    const value: unknown = command.getOptionValue(key);
    const values = Array.isArray(value) ? value : [value];
    const bad = values.find((v): v is string => typeof v === 'string' && FLAG_LIKE.test(v));
    if (bad !== undefined) throw new UsageError(`${option.long ?? option.flags} needs a value, got the flag "${bad}" (write the value right after ${option.long ?? option.flags})`);
  }
}
