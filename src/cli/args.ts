/**
 * Checks of flag values that commander leaves to the command: a value that may also come from the environment, and
 * repeatable flags.
 */
import type { Command } from 'commander';
import { ConfigError } from '../errors.js';

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
