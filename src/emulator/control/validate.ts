/** Small validators for control API bodies: a wrong shape is a 400 that names the field, never a 5xx. */
import { objectBody } from '../body.js';
import { ProblemError } from '../errors.js';

export const badRequest = (detail: string): ProblemError => new ProblemError({ status: 400, detail });

export function controlBody(body: unknown): Record<string, unknown> {
  const obj = objectBody(body);
  if (!obj) throw badRequest('The body must be a JSON object');
  return obj;
}

export function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  if (!Object.hasOwn(body, field)) return undefined;
  const v = body[field];
  if (typeof v !== 'string') throw badRequest(`\`${field}\` must be a string`);
  return v;
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const v = optionalString(body, field);
  if (v === undefined) throw badRequest(`\`${field}\` is required`);
  return v;
}

export function optionalStringArray(body: Record<string, unknown>, field: string): string[] | undefined {
  if (!Object.hasOwn(body, field)) return undefined;
  const v = body[field];
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string')) {
    throw badRequest(`\`${field}\` must be an array of strings`);
  }
  return v;
}
