/**
 * The catalogue of the kit's errors (after undici's lib/core/errors.js): every error the kit throws on purpose is a
 * KitError with a stable `code`, defined here and imported from here. Callers decide on the class (the runner turns
 * each into a verdict, the command line into an exit code); the code is what logs and tests match on.
 * This module imports nothing: every layer, src/model included, may depend on it.
 */

export class KitError extends Error {
  readonly code: string = 'ERR_KIT';
  override readonly name: string = 'KitError';
}

// ---- ends of a rule (src/runner/run-rule.ts turns each into a verdict, docs/verdicts.md) -------------------------------

/** Ends a rule as `skipped`: a capability or data the target lacks (never a fake pass). */
export class SkipRule extends KitError {
  override readonly code = 'ERR_RULE_SKIPPED';
  override readonly name = 'SkipRule';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * A step before the observation a rule is about could not be set up by the kit's own means (the control API, the
 * operator's settings, the clock): the rule cannot reach a verdict on its point, and ends `errored` with this reason.
 * A step the target's own answer spoiled is a TargetAnswer instead.
 */
export class Precondition extends KitError {
  override readonly code = 'ERR_PRECONDITION';
  override readonly name = 'Precondition';
}

/**
 * A set-up step the target itself answered otherwise than the spec states (a missing id, a refused step, a page that
 * is not a page): the kit could set it up, the target would not. Judged where it is met (issue 28 §2): the rule named
 * `owner`, which judges that statement, ends `failed` with this detail; any other rule that needed the step is
 * `skipped` naming the owner, and counts as unjudged for the exit code.
 */
export class TargetAnswer extends KitError {
  override readonly code = 'ERR_TARGET_ANSWER';
  override readonly name = 'TargetAnswer';
  constructor(readonly owner: string, message: string) {
    super(message);
  }
}

/** A rule definition the kit cannot accept (no level, a section named twice): thrown when the spec files load. */
export class RuleDefinitionError extends KitError {
  override readonly code = 'ERR_RULE_DEFINITION';
  override readonly name = 'RuleDefinitionError';
}

// ---- talking to a target ----------------------------------------------------------------------------------------------

/**
 * How a request failed to get an answer. `refused` and `unreachable` say the target is not there at all; `reset` and
 * `timeout` say it was there and dropped or hung the exchange (a failure of the target, docs/verdicts.md).
 */
export type TransportKind = 'refused' | 'unreachable' | 'reset' | 'timeout' | 'other';

const TRANSPORT_KINDS: Record<string, TransportKind> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'unreachable',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
};

/** The kind of a transport failure, from the error code of its cause (undici's or the socket's). */
export function transportKindOf(cause: unknown): TransportKind {
  const e = cause as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.cause?.code === 'string' ? e.cause.code : undefined;
  return (code && TRANSPORT_KINDS[code]) || 'other';
}

/** A request got no HTTP answer. */
export class TransportError extends KitError {
  override readonly code = 'ERR_TRANSPORT';
  override readonly name = 'TransportError';
  readonly kind: TransportKind;
  constructor(readonly url: string, readonly reason: string, options?: { cause?: unknown; kind?: TransportKind }) {
    super(`${reason} (${url})`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = options?.kind ?? transportKindOf(options?.cause);
  }
}

/**
 * A request was still answered 429 after every retry the client allows (each after its Retry-After): no verdict can
 * be reached on an answer the limit replaced (§8 "Rate limits: not shown": a 429 is never a failure in itself).
 */
export class RateLimitedError extends KitError {
  override readonly code = 'ERR_RATE_LIMITED';
  override readonly name = 'RateLimitedError';
  constructor(readonly url: string, readonly attempts: number, readonly retryAfter: string | undefined, readonly response: unknown) {
    super(`still answered 429 after ${attempts} attempts${retryAfter === undefined ? '' : ` (last Retry-After ${retryAfter})`} (${url})`);
  }
}

/** The control API (docs/design.md §5) refused a call: plumbing failed, not the protocol under test. */
export class ControlError extends KitError {
  override readonly code = 'ERR_CONTROL';
  override readonly name = 'ControlError';
  constructor(readonly path: string, readonly status: number, body: string) {
    super(`control API ${path} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** The token store of a remote target holds no usable token pair, or cannot be written. */
export class TokenStoreError extends KitError {
  override readonly code = 'ERR_TOKEN_STORE';
  override readonly name = 'TokenStoreError';
}

// ---- the command line (docs/design.md §3 exit codes) ------------------------------------------------------------------

export class UsageError extends KitError {
  override readonly code = 'ERR_USAGE';
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

/** A setting (flag or environment key) is missing or malformed; the message starts with its name. */
export class ConfigError extends KitError {
  override readonly code = 'ERR_CONFIG';
  override readonly name = 'ConfigError';
  readonly exitCode = 2;
  constructor(readonly key: string, problem: string) {
    super(`${key} ${problem}`);
  }
}

export class UnreachableError extends KitError {
  override readonly code = 'ERR_UNREACHABLE';
  override readonly name = 'UnreachableError';
  readonly exitCode = 3;
}

/**
 * The target is held by another run (its control API's run lock, src/targets/run-lock.ts): a usage conflict, exit 2,
 * named with the other run's id and start, before anything is sent that could spoil either run.
 */
export class TargetBusyError extends KitError {
  override readonly code = 'ERR_TARGET_BUSY';
  override readonly name = 'TargetBusyError';
  readonly exitCode = 2;
}

/** `conformance certify` found something failed, errored or flaky. */
export class CertificationRefused extends KitError {
  override readonly code = 'ERR_NOT_CERTIFIABLE';
  override readonly name = 'CertificationRefused';
  readonly exitCode = 1;
}

/**
 * `conformance certify` was given a report that is not a whole run of this kit (--only, one shard, shards that overlap
 * or leave rules out, another kit, the quick profile, an interrupted run): a usage error, not a verdict.
 */
export class PartialRunRefused extends KitError {
  override readonly code = 'ERR_PARTIAL_RUN';
  override readonly name = 'PartialRunRefused';
  readonly exitCode = 2;
}

/**
 * Reports that cannot be merged: none given; made with different seeds, kits, targets or profiles (their results would
 * not be comparable); or shards given twice or overlapping (a rule judged in two of them).
 */
export class MergeError extends KitError {
  override readonly name = 'MergeError';
  constructor(message: string, override readonly code: 'ERR_MERGE_SEED' | 'ERR_MERGE_EMPTY' | 'ERR_MERGE_INCOMPATIBLE' | 'ERR_MERGE_OVERLAP') {
    super(message);
  }
}

/** `conformance authorize` could not obtain a code (state mismatch, denied, timed out). */
export class AuthorizeError extends KitError {
  override readonly code = 'ERR_AUTHORIZE';
  override readonly name = 'AuthorizeError';
  readonly exitCode = 1;
}
