/**
 * Two answers to the same request compared: status, the headers the spec names, the body by structure (members,
 * JSON types, array lengths and order) and, where both servers were sent the same input, by value, except for the
 * members the kit names as varying by nature (ids, tokens and codes, timestamps), which no two servers share.
 */
import { SECRET_FIELDS } from '../secrets/mask.js';
import type { CapturedExchange } from './capture.js';
import { endpointOf, type Normalize } from './normalize.js';
import type { DifferenceClass } from './types.js';

/**
 * Headers compared: Content-Type (§4.1, §4.3 state application/json), Location (§4.1 redirects), Allow (405, RFC
 * 9110), WWW-Authenticate (RFC 6750 §3), Retry-After (§8 rate limit), Cache-Control and Pragma (RFC 6749 §5.1).
 * Date, lengths and connection headers say nothing of the protocol.
 */
export const NAMED_HEADERS = ['content-type', 'location', 'allow', 'www-authenticate', 'retry-after', 'cache-control', 'pragma'] as const;

/**
 * Members whose values differ between any two servers (and two runs of one) by nature, by the kit's reading of the
 * spec: ids the server assigns (§2.4–§2.11 `id`, `*_id`, `msgid`), tokens, codes and secrets (§2.2, §2.3), and the
 * times it stamps (§2.7 `timestamp`, `msec_timestamp`). Their presence and JSON type are compared, never their value.
 */
export const NAMED_NOISE: readonly { readonly name: string; readonly test: (member: string) => boolean }[] = [
  { name: 'ids', test: (m) => /^(id|msgid|uuid|ref_id)$|_ids?$|Id$/.test(m) },
  { name: 'tokens, codes and secrets', test: (m) => (SECRET_FIELDS as readonly string[]).includes(m) || /token$|^state$|signature/.test(m) },
  { name: 'timestamps', test: (m) => /timestamp|(^|_)(at|date|time)$|^(created|updated|closed|expires)_at$/.test(m) },
];

export function namedNoise(member: string): string | undefined {
  return NAMED_NOISE.find((n) => n.test(member))?.name;
}

/** An answer a second or more slower on one side, and several times slower, differs in timing; less is load. */
export const TIMING = { minDeltaMs: 2_000, minRatio: 4 } as const;

export interface RawDifference {
  readonly class: DifferenceClass;
  readonly place: string;
  readonly what: string;
  readonly a: string;
  readonly b: string;
}

export interface AnswerComparison {
  readonly differences: RawDifference[];
  /** Named-noise members met (not compared by value), by name. */
  readonly named: Map<string, number>;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function kindOf(v: Json): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

function parseJson(text: string): { json: Json } | undefined {
  try {
    return { json: JSON.parse(text) as Json };
  } catch {
    return undefined;
  }
}

function bodyKind(res: NonNullable<CapturedExchange['response']>): 'empty' | 'json' | 'text' {
  if (res.text.length === 0) return 'empty';
  return parseJson(res.text) ? 'json' : 'text';
}

/** A value as compared: strings normalized (addresses, settings, run id, secrets), all else as JSON. */
function shown(v: Json, normalize: Normalize): string {
  return typeof v === 'string' ? JSON.stringify(normalize(v)) : JSON.stringify(v);
}

/**
 * Nesting followed member by member; deeper than this (robustness rules send thousands of levels) a value is compared
 * as its whole text, which a recursion that deep could not even walk.
 */
const MAX_DEPTH = 64;

/** Sorted-member JSON of a value, normalized: equal for elements that are the same whatever their members' order. */
function canonical(v: Json, normalize: Normalize, depth = 0): string {
  if (depth > MAX_DEPTH) return normalize(flat(v));
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, normalize, depth + 1)).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k]!, normalize, depth + 1)}`).join(',')}}`;
  return shown(v, normalize);
}

/** Text already written, on flat's stack beside the values still to write. */
class Written {
  constructor(readonly text: string) {}
}

/** JSON text of a value too deep to walk, written from a stack of its own (JSON.stringify recurses too). */
function flat(v: Json): string {
  const out: string[] = [];
  const stack: (Json | Written)[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x instanceof Written) out.push(x.text);
    else if (Array.isArray(x)) {
      stack.push(new Written(']'));
      for (let i = x.length - 1; i >= 0; i -= 1) stack.push(x[i]!, ...(i > 0 ? [new Written(',')] : []));
      out.push('[');
    } else if (x !== null && typeof x === 'object') {
      stack.push(new Written('}'));
      const keys = Object.keys(x);
      for (let i = keys.length - 1; i >= 0; i -= 1) stack.push(x[keys[i]!]!, new Written(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
      out.push('{');
    } else out.push(JSON.stringify(x));
  }
  return out.join('');
}

/**
 * A request's input, to tell whether both sides were sent the same: the endpoint (ids in the path are the server's
 * own, handed back), the query and the body normalized, named-noise values left out.
 */
export function inputOf(x: CapturedExchange, normalize: Normalize): string {
  const body = x.request.body === undefined ? '' : x.request.body.toString();
  const parsed = body ? parseJson(body) : undefined;
  const text = parsed ? canonical(blankNamed(parsed.json), normalize) : normalize(body);
  const query = normalize(x.request.url).split('?')[1] ?? '';
  const blanked = query.replace(/(^|&)([^=&]+)=([^&]*)/g, (m, sep: string, key: string) => (namedNoise(safeDecode(key)) ? `${sep}${key}={v}` : m));
  return `${endpointOf(x.request.method, x.request.url, normalize)}?${blanked} ${text}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function blankNamed(v: Json, member?: string, depth = 0): Json {
  if (depth > MAX_DEPTH) return v;
  if (member !== undefined && namedNoise(member) && (v === null || typeof v !== 'object')) return '{v}';
  if (Array.isArray(v)) return v.map((x) => blankNamed(x, member, depth + 1));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, blankNamed(x, k, depth + 1)]));
  return v;
}

/** A header's value as compared: a Location's named-noise query values (the code, the state) left out. */
function headerValue(name: string, value: string | undefined, normalize: Normalize): string {
  if (value === undefined) return '(absent)';
  const v = normalize(value);
  return name === 'location' ? v.replace(/([?&#])([^=&]+)=([^&]*)/g, (m, sep: string, key: string) => (namedNoise(key) ? `${sep}${key}={v}` : m)) : v;
}

export function compareAnswers(a: CapturedExchange, b: CapturedExchange, sides: { readonly a: Normalize; readonly b: Normalize }, sameInput: boolean): AnswerComparison {
  const out: RawDifference[] = [];
  const named = new Map<string, number>();
  const diff = (cls: DifferenceClass, place: string, what: string, va: string, vb: string) => out.push({ class: cls, place, what, a: va, b: vb });
  const ra = a.response;
  const rb = b.response;
  if (!ra || !rb) {
    if (ra || rb || a.error !== b.error) diff('status', 'status', 'an answer on one side only', ra ? String(ra.status) : `no answer (${a.error})`, rb ? String(rb.status) : `no answer (${b.error})`);
    return { differences: out, named };
  }
  if (ra.status !== rb.status) {
    const sameClass = Math.floor(ra.status / 100) === Math.floor(rb.status / 100);
    diff('status', 'status', `${ra.status} → ${rb.status} (${sameClass ? 'same class' : 'another class'})`, String(ra.status), String(rb.status));
  }
  for (const h of NAMED_HEADERS) {
    const va = headerValue(h, ra.headers[h], sides.a);
    const vb = headerValue(h, rb.headers[h], sides.b);
    if (va !== vb) diff('header', `header ${h}`, ra.headers[h] === undefined ? 'only the candidate sends it' : rb.headers[h] === undefined ? 'only the primary sends it' : 'another value', va, vb);
  }
  const slower = Math.max(a.durationMs, b.durationMs);
  if (Math.abs(a.durationMs - b.durationMs) >= TIMING.minDeltaMs && slower >= TIMING.minRatio * Math.min(a.durationMs, b.durationMs)) {
    diff('timing', 'time', `answered in ${Math.round(a.durationMs)} ms → ${Math.round(b.durationMs)} ms`, `${Math.round(a.durationMs)} ms`, `${Math.round(b.durationMs)} ms`);
  }
  const ka = bodyKind(ra);
  const kb = bodyKind(rb);
  if (ka !== kb) {
    diff('shape', 'body', `a ${ka} body → a ${kb} body`, ka, kb);
    return { differences: out, named };
  }
  if (ka !== 'json') return { differences: out, named };
  const walk = (va: Json, vb: Json, path: string, member: string | undefined, depth = 0): void => {
    if (depth > MAX_DEPTH) {
      const [sa, sb] = [sides.a(flat(va)), sides.b(flat(vb))];
      if (sa !== sb) diff(sameInput ? 'value' : 'shape', `body ${path}`, 'another value deeper than the comparison follows', sa.slice(0, 200), sb.slice(0, 200));
      return;
    }
    const ta = kindOf(va);
    const tb = kindOf(vb);
    if (ta !== tb) {
      diff('shape', `body ${path}`, `${ta} → ${tb}`, shown(va, sides.a), shown(vb, sides.b));
      return;
    }
    if (Array.isArray(va) && Array.isArray(vb)) {
      if (va.length !== vb.length) {
        diff('length', `body ${path}`, `${va.length} → ${vb.length} elements`, String(va.length), String(vb.length));
        return;
      }
      const ca = va.map((x) => canonical(x, sides.a));
      const cb = vb.map((x) => canonical(x, sides.b));
      if (ca.join('\n') !== cb.join('\n') && [...ca].sort().join('\n') === [...cb].sort().join('\n')) {
        diff('order', `body ${path}`, 'the same elements in another order', ca.join(', ').slice(0, 200), cb.join(', ').slice(0, 200));
        return;
      }
      va.forEach((x, i) => walk(x, vb[i]!, `${path}[]`, member, depth + 1));
      return;
    }
    if (va !== null && typeof va === 'object' && vb !== null && typeof vb === 'object') {
      const oa = va as Record<string, Json>;
      const ob = vb as Record<string, Json>;
      const keysA = Object.keys(oa);
      const keysB = Object.keys(ob);
      for (const k of keysA) if (!(k in ob)) diff('shape', `body ${path}.${k}`, 'a member only the primary sends', shown(oa[k]!, sides.a), '(absent)');
      for (const k of keysB) if (!(k in oa)) diff('shape', `body ${path}.${k}`, 'a member only the candidate sends', '(absent)', shown(ob[k]!, sides.b));
      const common = keysA.filter((k) => k in ob);
      const commonB = keysB.filter((k) => k in oa);
      if (common.join(',') !== commonB.join(',')) diff('order', `body ${path}`, 'the same members in another order', common.join(', '), commonB.join(', '));
      for (const k of common) walk(oa[k]!, ob[k]!, `${path}.${k}`, k, depth + 1);
      return;
    }
    const name = member === undefined ? undefined : namedNoise(member);
    if (name) {
      named.set(name, (named.get(name) ?? 0) + 1);
      return;
    }
    const sa = shown(va, sides.a);
    const sb = shown(vb, sides.b);
    if (sameInput && sa !== sb) diff('value', `body ${path}`, 'another value', sa, sb);
  };
  walk(parseJson(ra.text)!.json, parseJson(rb.text)!.json, '$', undefined);
  return { differences: out, named };
}
