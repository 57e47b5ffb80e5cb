/**
 * Inputs for the HTTP robustness of the chat routes (§4.3): odd JSON bodies derived from a route's valid body, odd
 * history queries, texts that are not JSON, and non-ASCII texts and names that must round-trip. Generated ones are
 * drawn as a handful of seeded samples (not a full property run per route) so that eight routes stay cheap.
 */
import fc from 'fast-check';
import { NOT_JSON_SAMPLES, notJsonText } from './token-requests.js';
import { INVALID_UTF8 } from './invalid-utf8.js';

/** A few values drawn from `arb`, the same ones for the same seed. */
export function seededSamples<T>(arb: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return fc.sample(arb, { seed, numRuns: count });
}

/** Values a field of a well-formed body is replaced by: each of another JSON type, or a boundary of its own. */
const ODD_FIELD_VALUES: readonly unknown[] = [null, [], {}, '', -1, 1e308, 'x'.repeat(4096), [[[[{}]]]]];

/** Top-level JSON documents that are not the object every chat route takes. */
const ODD_DOCUMENTS: readonly string[] = ['null', '[]', '[{}]', '0', '-1.5e300', '"text"', 'true', '{}', '{"":{"":{"":[]}}}'];

/**
 * Odd JSON bodies for a route whose well-formed body is `valid` (an object; anything else has no fields to vary): each
 * field made odd, each left out, odd documents, and generated JSON.
 */
export function oddJsonBodies(body: unknown, seed: number, generated = 6): string[] {
  const valid: Record<string, unknown> = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
  const perField = Object.keys(valid).flatMap((key) => ODD_FIELD_VALUES.map((value) => JSON.stringify({ ...valid, [key]: value })));
  const withoutEach = Object.keys(valid).map((key) => JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))));
  return [...ODD_DOCUMENTS, ...perField, ...withoutEach, ...seededSamples(fc.json({ maxDepth: 3 }), seed, generated)];
}

/** Query strings of the history route with offset and limit out of their domain (negative, fractional, words, huge, repeated). */
export const ODD_HISTORY_QUERIES: readonly string[] = [
  'offset=-1', 'limit=-1', 'limit=0', 'offset=1.5', 'limit=2.5', 'offset=abc', 'limit=ten', 'offset=', 'limit=',
  'offset=99999999999999999999', 'limit=1e3', 'offset=0x10', 'offset[]=1', 'limit[a]=1', 'offset=1&offset=2', 'limit=%00', 'offset=%ZZ',
];

/** Texts that do not parse as JSON (the empty body left out: that is no body, not a malformed one), and a few generated. */
export function notJsonBodies(seed: number, generated = 3): string[] {
  const named = NOT_JSON_SAMPLES.filter((s) => s !== '');
  return [...named, ...seededSamples(notJsonText.filter((s) => s !== '' && !named.includes(s)), seed, generated)];
}

/**
 * Texts whose UTF-8 bytes a server can mangle: two-, three- and four-byte sequences, combining marks, a joined emoji,
 * right-to-left, the byte-order mark, line and paragraph separators, escapes JSON must carry.
 */
export const UTF8_TEXTS: readonly string[] = [
  'Привет, мир', 'Ça déjà vu — naïve façade', '漢字かなカナ한글', '👍🏽 😀 🧑‍💻', '👩‍👩‍👧‍👦', 'e\u0301 a\u0308 n\u0303',
  'שלום عربي', '\uFEFFbom first', 'line\u2028sep\u2029para', 'tab\tquote" back\\slash\nnewline', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈',
];

/**
 * One Unicode code point, any but the surrogate halves (which are not characters). Written out rather than fast-check's
 * `unit: 'binary'`, whose string arbitrary maps all 1.1 million code points when it is built: 0.5 s at every start.
 */
const scalarValue: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** Any Unicode text (every code point but lone surrogates), at least one character. */
export const anyUnicodeText: fc.Arbitrary<string> = fc.string({ unit: scalarValue, minLength: 1, maxLength: 40 });

/** Participant names in other scripts than Latin ASCII. */
export const UTF8_NAMES: readonly string[] = ['Анна Петрова', 'José Ñúñez-Müller', '李小龙', 'Zoë 👩‍💻 O\u0301', 'محمد علي'];

/**
 * A chat body with the bytes that are not UTF-8 inside a string the service stores (a message's text, a user's name),
 * not only in an extra member: a server that breaks only where it stores or indexes the text is tried too (issue 28
 * item 4). `path` names the string member; the rest of the body stays the valid request it was.
 */
export function withInvalidUtf8At(body: unknown, path: readonly string[]): Buffer {
  const mark = '\u0000stored-invalid-utf8\u0000';
  const copy = JSON.parse(JSON.stringify(body ?? {})) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== 'object') at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path[path.length - 1]!] = `before ${mark} after`;
  const [before, after] = JSON.stringify(copy).split(JSON.stringify(mark).slice(1, -1)) as [string, string];
  return Buffer.concat([Buffer.from(before, 'utf8'), INVALID_UTF8, Buffer.from(after, 'utf8')]);
}
