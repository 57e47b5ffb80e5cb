/**
 * `state` values for the access-granting redirect (§4.1: "returned unchanged"): each case names the kind of
 * character it carries that a careless server mangles (an unescaped `&` splits the parameter, `#` ends the query,
 * `+` turns into a space, a raw non-ASCII byte is re-encoded), so a counterexample reads as a diagnosis.
 */
import fc from 'fast-check';

export type StateKind =
  | 'query-delimiters' // & = ? splitting or starting a parameter
  | 'fragment' // # ends the query
  | 'plus-and-space' // + and space, the form-encoding pair
  | 'percent' // literal % and things that look like escapes
  | 'non-ascii' // Cyrillic, accents, emoji
  | 'markup' // < > " ' that must be escaped in an HTML attribute
  | 'json' // a JSON document, as integrations put in state
  | 'slash-and-brackets' // / [ ] { } |, PHP-style bracket parsing
  | 'long'; // over a hundred characters

export interface StateCase {
  readonly kind: StateKind;
  readonly value: string;
}

/**
 * A long state, as integrations build them (a signed, base64url-encoded JSON of where to return): 172 characters,
 * where a server that keeps state in a short column cuts it.
 */
export const LONG_STATE = `${'eyJyZXR1cm4iOiIvZGVhbHM_aWQ9MSZ0YWI9MiIsIm5vbmNlIjoi'}${'0123456789abcdefghijklmnopqrstuvwxyz'.repeat(3)}.${'Sig-_'.repeat(3)}`;

/**
 * A state of exactly `length` characters in the same form (base64url JSON, then a signature): the edges a column or a
 * URL buffer cuts at (255, 1024) lie between the 172 of LONG_STATE, 500 and 2,000 (issue 28 item 4).
 */
export function longState(length: number): string {
  const body = `${LONG_STATE.split('.')[0]}${'ABCDEFGHIJKLMNOPQRSTUVWXYZ-_0123456789'.repeat(Math.ceil(length / 38))}`;
  const tail = `.${'Sig-_'.repeat(3)}${length}`;
  return `${body.slice(0, length - tail.length)}${tail}`;
}

/** The long states every run sends, whatever the seed draws. */
export const LONG_STATES: readonly string[] = [LONG_STATE, longState(500), longState(2000)];

const FIXED: Record<StateKind, readonly string[]> = {
  'query-delimiters': ['a&b=c', 'x=1&code=forged', '?state=1', '&&=='],
  fragment: ['before#after', '#', 'a#b#c'],
  'plus-and-space': ['a+b', 'a b', ' leading', 'trailing ', '+ +'],
  percent: ['100%', '%20', '%zz', '%2526', 'a%26b'],
  'non-ascii': ['состояние', 'café', '😀✓', 'ü€'],
  markup: ['<script>x</script>', '"quoted"', "it's", 'a>b<c'],
  json: ['{"return":"/deals?id=1&tab=2"}', '["a",1]'],
  'slash-and-brackets': ['/path/to?x', 'a[b]=c', '{x|y}', 'state[0]'],
  long: [LONG_STATE],
};

/** Characters that each need escaping somewhere between the integration, the page and the Redirect URI. */
const TRICKY = [...'&=?#+ %/<>"\'[]{}|\\^`', 'й', 'é', '😀', '€'];

function kindOf(value: string): StateKind {
  if (/[&=?]/.test(value)) return 'query-delimiters';
  if (value.includes('#')) return 'fragment';
  if (/[+ ]/.test(value)) return 'plus-and-space';
  if (value.includes('%')) return 'percent';
  if (/[^\x20-\x7e]/.test(value)) return 'non-ascii';
  if (/[<>"']/.test(value)) return 'markup';
  return 'slash-and-brackets';
}

/** A fixed tricky value of every kind, or a generated mix of safe and tricky characters (named by its first tricky kind). */
export const stateCases: fc.Arbitrary<StateCase> = fc.oneof(
  fc.constantFrom(...(Object.entries(FIXED) as [StateKind, readonly string[]][]).flatMap(([kind, values]) => values.map((value) => ({ kind, value })))),
  fc.array(fc.oneof(fc.constantFrom(...TRICKY), fc.constantFrom(...'abcXYZ019-_.~')), { minLength: 1, maxLength: 24 })
    .map((chars) => chars.join(''))
    .filter((value) => TRICKY.some((c) => value.includes(c)))
    .map((value) => ({ kind: kindOf(value), value })),
);

/** One value with a character of every kind: the browser rules use it as a single, thorough case. */
export const EVERY_KIND_STATE = 'a&b=c?d#e+f g%20h/i[j]{k}<l>"m\'n-é-й-😀';
