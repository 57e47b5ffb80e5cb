/**
 * The command line's errors and their exit codes (docs/design.md §3) live in the kit's catalogue, src/errors.ts;
 * this path stays for code that still names them here.
 */
export { ConfigError, UnreachableError, UsageError } from '../errors.js';
