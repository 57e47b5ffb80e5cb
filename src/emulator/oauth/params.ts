/**
 * Typed reading of token-request fields. A wrong JSON type (number, array, object, null) is a 400, never a
 * crash further down; the `accept-wrong-types` fault turns that check off here and nowhere else.
 */
import { timingSafeEqual } from 'node:crypto';
import { ProblemError } from '../errors.js';
import type { FaultSwitches } from '../faults.js';
import type { VariationSwitches } from '../variations.js';

export type TokenField = 'grant_type' | 'client_id' | 'client_secret' | 'code' | 'refresh_token' | 'redirect_uri';

export function invalid(hint: string, detail: string, error = 'invalid_request'): ProblemError {
  return new ProblemError({ status: 400, detail, hint, error });
}

export const checkParam = (field: TokenField): string => `Check the \`${field}\` parameter`;

export class TokenParams {
  constructor(private readonly body: Record<string, unknown>, private readonly faults: FaultSwitches, private readonly variations?: VariationSwitches) {}

  has(field: TokenField): boolean {
    return Object.hasOwn(this.body, field);
  }

  /** The field as sent, whatever its type (for the faults that read a field leniently). */
  raw(field: TokenField): unknown {
    return this.has(field) ? this.body[field] : undefined;
  }

  /** The field as a string, or undefined when absent. */
  optional(field: TokenField): string | undefined {
    if (!this.has(field)) return undefined;
    const value = this.body[field];
    if (typeof value === 'string') return value;
    // The `token-coerces-wrapped-values` variation: ["<value>"] read as "<value>".
    if (this.variations?.isOn('token-coerces-wrapped-values') && Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') return value[0];
    if (this.faults.isOn('accept-wrong-types')) return String(value);
    throw invalid(checkParam(field), `The \`${field}\` parameter must be a string`);
  }

  required(field: TokenField): string {
    const value = this.optional(field);
    if (value === undefined) throw invalid(checkParam(field), `The request is missing the required \`${field}\` parameter`);
    return value;
  }

  /** The received secrets, for the `echo-secret-in-error` fault only. */
  receivedSecrets(): string {
    return (['client_secret', 'code', 'refresh_token'] as const)
      .filter((f) => this.has(f))
      .map((f) => `${f}=${String(this.body[f])}`)
      .join(', ');
  }
}

/** Constant-time comparison, so the emulator does not model a timing oracle on secrets. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
