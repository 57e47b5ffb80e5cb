/**
 * Errors the command line turns into exit codes (docs/design.md §3): 2 for usage and configuration, 3 for an unreachable target.
 */
export class UsageError extends Error {
  readonly code = 'ERR_USAGE';
  readonly exitCode = 2;
}

/** A setting (flag or environment key) is missing or malformed; the message starts with its name. */
export class ConfigError extends Error {
  readonly code = 'ERR_CONFIG';
  readonly exitCode = 2;
  constructor(readonly key: string, problem: string) {
    super(`${key} ${problem}`);
  }
}

export class UnreachableError extends Error {
  readonly code = 'ERR_UNREACHABLE';
  readonly exitCode = 3;
}
