/**
 * fast-check arbitraries for the chat interface (§2.4–§2.11, §4.3, §5.2): valid bodies, and invalid ones that each
 * name what they break (the field, and how), so a shrunk counterexample reads as a diagnosis:
 * "payload.sender.name missing was accepted", "signed as PUT, sent as POST was accepted".
 */
import fc from 'fast-check';

// ---- §5.2: changing one signed part after signing

export type Tamper =
  | { readonly part: 'method'; readonly signedAs: 'PUT' | 'GET' | 'DELETE' | 'PATCH' }
  | { readonly part: 'body-byte'; readonly position: number; readonly letter: string }
  | { readonly part: 'content-md5'; readonly variant: 'md5-of-other-body' | 'empty-body-md5' | 'one-digit-changed' }
  | { readonly part: 'content-type'; readonly sent: string }
  | { readonly part: 'date'; readonly shiftSeconds: number }
  | { readonly part: 'path'; readonly signedPath: 'other-endpoint' | 'other-channel' | 'prefix-dropped' | 'trailing-slash' }
  | { readonly part: 'secret'; readonly variant: 'other-secret' | 'last-char-changed' | 'empty-secret' };

export type TamperPart = Tamper['part'];

export const TAMPERS: Record<TamperPart, fc.Arbitrary<Tamper>> = {
  method: fc.constantFrom('PUT', 'GET', 'DELETE', 'PATCH').map((signedAs) => ({ part: 'method', signedAs }) as const),
  'body-byte': fc.record({ position: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), letter: fc.constantFrom('a', 'b', 'Z', '0', ' ') })
    .map(({ position, letter }) => ({ part: 'body-byte', position, letter }) as const),
  'content-md5': fc.constantFrom('md5-of-other-body', 'empty-body-md5', 'one-digit-changed').map((variant) => ({ part: 'content-md5', variant }) as const),
  'content-type': fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'Application/JSON')
    .map((sent) => ({ part: 'content-type', sent }) as const),
  date: fc.oneof(fc.integer({ min: 1, max: 600 }), fc.integer({ min: -600, max: -1 })).map((shiftSeconds) => ({ part: 'date', shiftSeconds }) as const),
  path: fc.constantFrom('other-endpoint', 'other-channel', 'prefix-dropped', 'trailing-slash').map((signedPath) => ({ part: 'path', signedPath }) as const),
  secret: fc.constantFrom('other-secret', 'last-char-changed', 'empty-secret').map((variant) => ({ part: 'secret', variant }) as const),
};

/** One letter of a string value (`"key":"value"`) changed: still JSON, still valid, one byte different. */
export function tamperBody(text: string, position: number, letter: string): string {
  const spots: number[] = [];
  for (const m of text.matchAll(/:"([^"\\]*)"/g)) {
    const start = m.index! + 2;
    for (let i = 0; i < m[1]!.length; i += 1) if (/[A-Za-z0-9 ]/.test(m[1]![i]!)) spots.push(start + i);
  }
  if (spots.length === 0) return `${text} `;
  const at = spots[Math.min(spots.length - 1, Math.floor(position * spots.length))]!;
  const replacement = text[at] === letter ? (letter === 'a' ? 'b' : 'a') : letter;
  return text.slice(0, at) + replacement + text.slice(at + 1);
}

// ---- §2.4–§2.11: one field broken at a time

/** §2.7 type: "Required. One of: text, file, video, picture, voice, audio, sticker, location, contact". */
export const MESSAGE_TYPES = ['text', 'file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location', 'contact'] as const;

export type JsonType = 'string' | 'int' | 'number' | 'object' | 'array' | 'bool' | 'enum';

/** A field of a valid body, by path, with the type the spec gives it. */
export interface FieldSpec {
  readonly path: readonly (string | number)[];
  readonly type: JsonType;
  /**
   * The member is left unmarked in a table whose siblings are marked optional (reading `unmarked-member`): missing
   * and accepted is non_strict. Without it the member is required (`required-member`): missing and accepted fails.
   */
  readonly unmarked?: boolean;
  /** For an `enum` member, the values the spec lists: the sweep sends the first in upper case, as a named edge. */
  readonly values?: readonly string[];
}

export type Breakage =
  | { readonly breakage: 'missing' }
  | { readonly breakage: 'wrong-type'; readonly wrongType: string; readonly value: unknown };

export type FieldCase = FieldSpec & Breakage;

/**
 * A case that gives a field a value of another JSON type (the `wrong-type` reading: coerced or ignored and accepted is
 * non_strict), as against a missing field or a value outside an enumeration (`enumeration`: accepted fails). Any value
 * of an enumerated member but null is outside its set, a number or a boolean as much as a string (R2-C12); null reads
 * as the member left empty.
 */
export function isWrongJsonType(c: FieldCase): boolean {
  return c.breakage === 'wrong-type' && !(c.type === 'enum' && c.value !== null);
}

/** Named values of other JSON types than `type`: the canonical wrong values of a deterministic sweep. */
export function wrongValues(type: JsonType): { wrongType: string; value: unknown }[] {
  const all: Record<string, unknown> = { 'a number': 7, 'a boolean': true, 'an object': { value: 'x' }, 'an array': ['x'], null: null, 'a string': 'x7', 'a fraction': 1.5 };
  const keep: Record<JsonType, string[]> = {
    string: ['a number', 'a boolean', 'an object', 'an array', 'null'],
    enum: ['a number', 'a boolean', 'an object', 'null', 'a string'],
    int: ['a string', 'a fraction', 'a boolean', 'an object', 'null'],
    number: ['a string', 'a boolean', 'an object', 'null'],
    object: ['a string', 'a number', 'an array', 'null'],
    array: ['a string', 'a number', 'an object', 'null'],
    bool: ['a string', 'a number', 'null'],
  };
  return keep[type].map((wrongType) => ({ wrongType, value: all[wrongType] }));
}

/** Random values of other JSON types than `type`, for the property part. */
export function wrongValueArb(type: JsonType): fc.Arbitrary<{ wrongType: string; value: unknown }> {
  const str = fc.string({ maxLength: 12 }).map((value) => ({ wrongType: 'a string', value }));
  const int = fc.integer().map((value) => ({ wrongType: 'a number', value }));
  const frac = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)).map((value) => ({ wrongType: 'a fraction', value }));
  const bool = fc.boolean().map((value) => ({ wrongType: 'a boolean', value }));
  const obj = fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }).map((value) => ({ wrongType: 'an object', value }));
  const arr = fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }).map((value) => ({ wrongType: 'an array', value }));
  const nul = fc.constant({ wrongType: 'null', value: null });
  switch (type) {
    case 'string': return fc.oneof(int, bool, obj, arr, nul);
    case 'enum': return fc.oneof(int, bool, obj, nul, str.filter((s) => !/^[a-z_]+$/.test(String(s.value))));
    case 'int': return fc.oneof(str, frac, bool, obj, nul);
    case 'number': return fc.oneof(str, bool, obj, nul);
    case 'object': return fc.oneof(str, int, arr, nul);
    case 'array': return fc.oneof(str, int, obj, nul);
    case 'bool': return fc.oneof(str, int, nul);
  }
}

/**
 * Every named case of breaking each field: missing, and each canonical wrong type; an enumerated member also gets the
 * empty string and a listed value in upper case (`V1`, `TEXT`), edges a random string rarely hits (R2-C12).
 */
export function sweepCases(fields: readonly FieldSpec[]): FieldCase[] {
  return fields.flatMap((f) => [
    { ...f, breakage: 'missing' as const },
    ...wrongValues(f.type).map((w) => ({ ...f, breakage: 'wrong-type' as const, ...w })),
    ...(f.type === 'enum' ? enumEdges(f).map((w) => ({ ...f, breakage: 'wrong-type' as const, ...w })) : []),
  ]);
}

/** The named edges of an enumeration: "" and, where the spec's values are known, the first in another case. */
function enumEdges(f: FieldSpec): { wrongType: string; value: unknown }[] {
  const first = f.values?.[0];
  return [{ wrongType: 'the empty string', value: '' }, ...(first !== undefined && first.toUpperCase() !== first ? [{ wrongType: 'a listed value in upper case', value: first.toUpperCase() }] : [])];
}

/** One random case: a field, missing or given a random value of another type. */
export function fieldCaseArb(fields: readonly FieldSpec[]): fc.Arbitrary<FieldCase> {
  return fc.constantFrom(...fields).chain((f) => fc.oneof(
    fc.constant({ ...f, breakage: 'missing' as const }),
    wrongValueArb(f.type).map((w) => ({ ...f, breakage: 'wrong-type' as const, ...w })),
  ));
}

/**
 * The reading (docs/verdicts.md) that judges a case: a missing member by how the spec marks it, a value of another
 * JSON type by `wrong-type`, and a string outside an enumerated set (an `enum` member) by `enumeration`.
 */
export function caseReading(c: FieldCase): 'required-member' | 'unmarked-member' | 'wrong-type' | 'enumeration' {
  if (c.breakage === 'missing') return c.unmarked ? 'unmarked-member' : 'required-member';
  return c.type === 'enum' && c.value !== null ? 'enumeration' : 'wrong-type';
}

export function describeCase(c: FieldCase): string {
  return `${c.path.join('.')} ${c.breakage === 'missing' ? 'missing' : `as ${c.wrongType} (${JSON.stringify(c.value)})`}`;
}

/** A deep copy of `body` with the case applied. */
export function applyCase<T>(body: T, c: FieldCase | { path: readonly (string | number)[]; breakage: 'missing' }): T {
  const copy = structuredClone(body) as unknown as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of c.path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = c.path.at(-1)!;
  if (c.breakage === 'missing') delete node[last];
  else node[last] = (c as { value: unknown }).value;
  return copy as unknown as T;
}

/** A deep copy of `body` without the fields at `paths` (deepest first, so omitting a parent after its child is harmless). */
export function withoutPaths<T>(body: T, paths: readonly (readonly (string | number)[])[]): T {
  return [...paths].sort((a, b) => b.length - a.length).reduce((b, path) => applyCase(b, { path, breakage: 'missing' }), body);
}

export function describeOmitted(paths: readonly (readonly (string | number)[])[]): string {
  return `without ${paths.map((p) => p.join('.')).join(', ')}`;
}

/** Optional fields omitted: every subset (the property part), by path. */
export function omittedSubsetArb(paths: readonly (readonly (string | number)[])[]): fc.Arbitrary<(readonly (string | number)[])[]> {
  return fc.subarray([...paths], { minLength: 1 });
}

// ---- §2.6 and §8: source external_id

export type ExternalIdCase =
  | { readonly variant: 'printable'; readonly value: string }
  | { readonly variant: 'integer'; readonly value: number }
  | { readonly variant: 'boolean'; readonly value: boolean }
  | { readonly variant: 'too-long'; readonly value: string }
  | { readonly variant: 'non-printable'; readonly value: string; readonly char: string }
  | { readonly variant: 'other-type'; readonly value: unknown };

/**
 * external_id of the JSON types §2.6 does not list ("string, int or bool"): null, a fraction, an object, an array,
 * named on every run (issue 28 item 4) and judged by `wrong-type` (refused passes, taken is non_strict).
 */
export const EXTERNAL_ID_OTHER_TYPES: readonly ExternalIdCase[] = [null, 1.5, {}, []].map((value) => ({ variant: 'other-type', value }));

const printableChar = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const printable = (min: number, max: number) => fc.array(printableChar, { minLength: min, maxLength: max }).map((a) => a.join(''));

export const validExternalId: fc.Arbitrary<ExternalIdCase> = fc.oneof(
  printable(1, 40).map((value) => ({ variant: 'printable', value }) as const),
  fc.integer({ min: -1e9, max: 1e9 }).map((value) => ({ variant: 'integer', value }) as const),
  fc.boolean().map((value) => ({ variant: 'boolean', value }) as const),
);

export const invalidExternalId: fc.Arbitrary<ExternalIdCase> = fc.oneof(
  printable(41, 80).map((value) => ({ variant: 'too-long', value }) as const),
  fc.record({
    text: printable(0, 39),
    at: fc.nat(),
    char: fc.constantFrom('\u0000', '\u0001', '\t', '\n', '\u001f', '\u007f', 'é', 'Ж', '€', '😀'),
  }).map(({ text, at, char }) => {
    const i = text.length === 0 ? 0 : at % (text.length + 1);
    return { variant: 'non-printable', value: text.slice(0, i) + char + text.slice(i), char } as const;
  }),
);

/** Whether §2.6 and §8 accept the case: up to 40 printable ASCII characters, an integer or a boolean. */
export function externalIdAccepted(c: ExternalIdCase): boolean {
  return c.variant === 'printable' || c.variant === 'integer' || c.variant === 'boolean';
}

export function describeExternalId(c: ExternalIdCase): string {
  return c.variant === 'other-type' ? `${c.variant} ${JSON.stringify(c.value)}` : `${c.variant} ${JSON.stringify(c.value)} (${String(c.value).length} characters)`;
}

/** The §8 boundary, both sides: 40 characters pass, 41 do not. */
export const EXTERNAL_ID_BOUNDARY = { accepted: 'x'.repeat(40), refused: 'x'.repeat(41) } as const;

// ---- robustness: arbitrary bodies at the message endpoint

/** Odd events every run tries, whatever the case count: `payload.message` of every JSON type but an object, no payload. */
export const ODD_MESSAGE_EVENTS: readonly unknown[] = [
  { event_type: 'new_message', payload: { message: 'text' } },
  { event_type: 'new_message', payload: { message: null } },
  { event_type: 'new_message', payload: { message: [1, 2] } },
  { event_type: 'new_message', payload: { message: 42 } },
  { event_type: 'new_message', payload: 'not an object' },
  { event_type: 'new_message' },
  [],
];

export const oddMessageEvent: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({
    event_type: fc.constantFrom('new_message', 'edit_message', 'typing', '', 1),
    payload: fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({
        conversation_id: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
        msgid: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)),
        sender: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.record({ id: fc.string({ maxLength: 6 }), name: fc.string({ maxLength: 6 }) })),
        message: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(null), fc.string({ maxLength: 4 }), fc.array(fc.integer(), { maxLength: 2 })),
        timestamp: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })),
      }, { requiredKeys: ['message'] }),
    ),
  }, { requiredKeys: [] }),
);
