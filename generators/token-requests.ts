/**
 * fast-check arbitraries for the token exchange (§4.1): valid requests in both encodings, and invalid ones,
 * each of which names the field it breaks and how.
 */
import fc from 'fast-check';

export const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type', 'code', 'redirect_uri'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

export type Breakage = 'missing' | 'wrong' | 'wrong-type';

/** One way of breaking one field of an otherwise valid code-grant request. */
export interface Mutation {
  readonly field: TokenField;
  readonly breakage: Breakage;
  /** The value sent in place of the valid one; absent for `missing`. */
  readonly value?: unknown;
}

/** JSON values that are not strings: what a careless client puts where a string belongs. */
export const nonStringJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

/** A string near the valid one: the cases a sloppy comparison lets through. */
export function nearMiss(valid: string): fc.Arbitrary<string> {
  const variants = [
    valid.toUpperCase(),
    `${valid} `,
    ` ${valid}`,
    valid.slice(0, -1),
    `${valid}x`,
    valid.replace(/^https:/, 'http:'),
    valid.endsWith('/') ? valid.slice(0, -1) : `${valid}/`,
    `${valid}?x=1`,
  ].filter((v) => v !== valid);
  return fc.oneof(
    fc.constantFrom(...variants),
    fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s !== valid),
  );
}

/** Wrong values for each field, given the valid request. */
export function wrongValue(field: TokenField, valid: Record<TokenField, string>): fc.Arbitrary<unknown> {
  if (field === 'grant_type') {
    return fc.oneof(
      fc.constantFrom('password', 'client_credentials', 'AUTHORIZATION_CODE', 'authorization code', 'refresh_token ', ''),
      fc.string({ maxLength: 24 }).filter((s) => s !== 'authorization_code' && s !== 'refresh_token'),
    );
  }
  return nearMiss(valid[field]);
}

export function mutation(field: TokenField, breakage: Breakage, valid: Record<TokenField, string>): fc.Arbitrary<Mutation> {
  switch (breakage) {
    case 'missing': return fc.constant({ field, breakage });
    case 'wrong': return wrongValue(field, valid).map((value) => ({ field, breakage, value }));
    case 'wrong-type': return nonStringJson.map((value) => ({ field, breakage, value }));
  }
}

export function applyMutation(fields: Record<string, unknown>, m: Mutation): Record<string, unknown> {
  const out = { ...fields };
  if (m.breakage === 'missing') delete out[m.field];
  else out[m.field] = m.value;
  return out;
}

/** Bodies that are not JSON at all, sent with a JSON Content-Type. */
export const notJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '{"client_id":', 'null,', "{'a':1}", '<xml/>', 'client_id=1&grant_type=x', '\u0000'),
  fc.string({ maxLength: 40 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
);

/** Any JSON document at all: robustness cases for "never a 5xx". */
export const anyJsonBody: fc.Arbitrary<string> = fc.json({ maxDepth: 3 });
