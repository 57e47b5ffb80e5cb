/**
 * fast-check arbitraries for the token exchange (§4.1): valid requests in both encodings, and invalid ones,
 * each of which names the field it breaks and how.
 */
import fc from 'fast-check';

export const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type', 'code', 'redirect_uri'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];

export type TokenBreakage = 'missing' | 'wrong' | 'wrong-type';

/**
 * How a valid value is bent into a wrong one. Named transforms, applied to the real value when the request is
 * built, so a counterexample reads as a diagnosis ("redirect_uri with a trailing slash was accepted").
 */
export const NEAR_MISSES = {
  'upper-case': (v: string) => v.toUpperCase(),
  'trailing-space': (v: string) => `${v} `,
  'leading-space': (v: string) => ` ${v}`,
  'last-char-dropped': (v: string) => v.slice(0, -1),
  'char-appended': (v: string) => `${v}x`,
  'http-for-https': (v: string) => v.replace(/^https:/, 'http:'),
  'trailing-slash': (v: string) => (v.endsWith('/') ? v.slice(0, -1) : `${v}/`),
  'query-added': (v: string) => `${v}?x=1`,
} as const;
export type NearMiss = keyof typeof NEAR_MISSES;

/** Wrong JSON types; the `wrapped-*` ones carry the valid value, which a server that coerces with String() accepts. */
export type WrongType = 'wrapped-in-array' | 'wrapped-in-object' | 'other';

/** One way of breaking one field of an otherwise valid request. */
export type Mutation =
  | { readonly field: TokenField; readonly breakage: 'missing' }
  | { readonly field: TokenField; readonly breakage: 'wrong'; readonly nearMiss?: NearMiss; readonly value?: string }
  | { readonly field: TokenField; readonly breakage: 'wrong-type'; readonly wrongType: WrongType; readonly value?: unknown };

/** JSON values that are not strings: what a careless client puts where a string belongs. */
export const nonStringJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 6 }), { maxKeys: 2 }),
);

const GRANT_TYPES = ['authorization_code', 'refresh_token'];

export function mutation(field: TokenField, breakage: TokenBreakage): fc.Arbitrary<Mutation> {
  switch (breakage) {
    case 'missing':
      return fc.constant({ field, breakage });
    case 'wrong':
      if (field === 'grant_type') {
        return fc.oneof(
          fc.constantFrom('password', 'client_credentials', 'AUTHORIZATION_CODE', 'authorization code', 'refresh_token ', ''),
          fc.string({ maxLength: 24 }).filter((s) => !GRANT_TYPES.includes(s)),
        ).map((value) => ({ field, breakage, value }));
      }
      return fc.oneof(
        fc.constantFrom(...(Object.keys(NEAR_MISSES) as NearMiss[])).map((nearMiss) => ({ field, breakage, nearMiss })),
        fc.string({ minLength: 1, maxLength: 64 }).map((value) => ({ field, breakage, value })),
      );
    case 'wrong-type':
      return fc.oneof(
        fc.constantFrom<WrongType>('wrapped-in-array', 'wrapped-in-object').map((wrongType) => ({ field, breakage, wrongType })),
        // true on its own: a loose comparison (PHP ==) takes it as equal to any string.
        fc.constant({ field, breakage, wrongType: 'other' as const, value: true }),
        nonStringJson.map((value) => ({ field, breakage, wrongType: 'other' as const, value })),
      );
  }
}

/** The request fields with the mutation applied; undefined when the mutation happens to leave the value valid. */
export function applyMutation(fields: Record<string, unknown>, m: Mutation): Record<string, unknown> | undefined {
  const out = { ...fields };
  const valid = String(fields[m.field]);
  switch (m.breakage) {
    case 'missing':
      delete out[m.field];
      break;
    case 'wrong':
      out[m.field] = m.nearMiss ? NEAR_MISSES[m.nearMiss](valid) : m.value;
      break;
    case 'wrong-type':
      out[m.field] = m.wrongType === 'wrapped-in-array' ? [valid] : m.wrongType === 'wrapped-in-object' ? { value: valid } : m.value;
      break;
  }
  return out[m.field] === fields[m.field] ? undefined : out;
}

/**
 * How accepting a request with this breakage is judged (docs/verdicts.md readings): `failed` where it breaks security
 * or a stated member (a wrong or missing secret, code or client_id, another value of another type), `non_strict` where
 * the member is unmarked (redirect_uri missing: K11) or a value of another JSON type that carries the valid one
 * (`["<valid>"]`, coerced: K15), or a value of another type of a member that is not a credential. grant_type is an
 * enumeration ("`authorization_code` or `refresh_token`") and the member the grant is chosen by: missing, or a number
 * or `true` in its place, accepted fails (R2-A8).
 */
export function acceptanceOf(m: { readonly field: string; readonly breakage: TokenBreakage; readonly wrongType?: WrongType }): 'failed' | 'non_strict' {
  const unmarked = m.field === 'redirect_uri';
  if (m.breakage === 'missing') return unmarked ? 'non_strict' : 'failed';
  if (m.breakage === 'wrong-type') return m.wrongType !== 'other' || unmarked ? 'non_strict' : 'failed';
  return 'failed';
}

/** Texts that do not parse as JSON, each a mistake clients make (cut short, single quotes, XML, a form body); '' is no body. */
export const NOT_JSON_SAMPLES: readonly string[] = ['', '{', '{"client_id":', 'null,', "{'a':1}", '<xml/>', 'client_id=1&grant_type=x', '\u0000'];

/** Bodies that are not JSON at all, sent with a JSON Content-Type. */
export const notJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NOT_JSON_SAMPLES),
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
