/**
 * Records the exchanges of one rule for the report. Keeps the first and the last few when a property rule sends
 * hundreds, and counts them all. What is kept is masked when it is read, once, with every secret the run knows by
 * then: masking each exchange as it passes would cost far more and know fewer secrets.
 */
import { RateLimitedError, TransportError } from '../errors.js';
import type { BrowserAnswer } from '../model/context.js';
import type { HttpRequest, HttpResponse } from '../model/http.js';
import type { Exchange } from '../model/result.js';
import { ANSWER_SECRET_FIELDS, maskSecret, type Masker } from '../secrets/mask.js';
import type { HttpClient } from '../targets/http.js';

const KEEP_FIRST = 4;
const KEEP_LAST = 8;
/** Bodies kept per exchange in the report; the HTML shows 8 KB of them. */
const BODY_LIMIT = 16 * 1024;
/** Clipped text is masked with this much beyond the limit, so a secret across the cut is still masked whole. */
const MASK_MARGIN = 4096;

/**
 * The first exchange of a rule that shows the target broken whatever the rule expects: a 5xx answer, a connection
 * reset, a request that hung until the time limit, or a credential where the spec puts none (docs/verdicts.md).
 */
export interface Breach {
  readonly kind: 'server-error' | 'reset' | 'timeout' | 'credential-leak';
  /** Where a leaked credential was seen, e.g. "the set-cookie header". */
  readonly where?: string;
  /** 1-based position among the rule's exchanges. */
  readonly index: number;
  readonly exchange: Exchange;
}

/** An exchange as sent and received, not yet clipped or masked. */
interface RawExchange {
  readonly request: HttpRequest;
  readonly response?: HttpResponse;
  readonly error?: string;
  readonly started_at: string;
  readonly duration_ms: number;
}

export class Recorder {
  readonly #first: RawExchange[] = [];
  readonly #last: RawExchange[] = [];
  #count = 0;
  #lastRequest: HttpRequest | undefined;
  #breach: { kind: Breach['kind']; index: number; raw: RawExchange; where?: string } | undefined;

  constructor(private readonly client: HttpClient, private readonly masker: Masker, private readonly leaks: LeakScan = {}) {}

  /** Sends one request and records it; learns the secrets in the response body before masking. */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const startedAt = new Date().toISOString();
    this.#lastRequest = req;
    try {
      const res = await this.client.send(req);
      this.#answered(req, res, startedAt);
      return { ...res, request: req };
    } catch (err) {
      // The last 429 is shown in the report beside the rule's `errored`: what the limit answered instead.
      if (err instanceof RateLimitedError) this.#push({ request: req, response: err.response as HttpResponse, started_at: startedAt, duration_ms: round((err.response as HttpResponse).durationMs) });
      if (err instanceof TransportError) this.#unanswered(req, err.reason, err.kind, startedAt);
      throw err;
    }
  }

  /** Records an exchange sent by other means (the browser's navigations), judged as one this recorder sent. */
  observe(req: HttpRequest, answer: BrowserAnswer): void {
    const startedAt = new Date(Date.now() - ('response' in answer ? answer.response.durationMs : 0)).toISOString();
    if ('response' in answer) this.#answered(req, answer.response, startedAt);
    else this.#unanswered(req, answer.error, answer.kind, startedAt);
  }

  #answered(req: HttpRequest, res: HttpResponse, startedAt: string): void {
    if ((res.headers['content-type'] ?? '').includes('json') && mayHoldSecrets(res.text)) learnJson(this.masker, res.text);
    const where = res.status >= 500 ? undefined : leakIn(req, res, this.masker, this.leaks);
    this.#push({ request: req, response: res, started_at: startedAt, duration_ms: round(res.durationMs) }, res.status >= 500 ? 'server-error' : where ? 'credential-leak' : undefined, where);
  }

  #unanswered(req: HttpRequest, error: string, kind: string, startedAt: string): void {
    const breach = kind === 'reset' || kind === 'timeout' ? kind : undefined;
    this.#push({ request: req, error, started_at: startedAt, duration_ms: 0 }, breach);
  }

  /** The first exchange that showed the target broken, masked; undefined when none did. */
  get breach(): Breach | undefined {
    const b = this.#breach;
    return b && { kind: b.kind, index: b.index, exchange: this.#mask(b.raw), ...(b.where ? { where: b.where } : {}) };
  }

  /** Runs a request to `url` sent outside this recorder (a browser navigation) in a slot of its budget under the run's rate limit. */
  inSlot<T>(url: string, send: () => Promise<T>): Promise<T> {
    return this.client.inSlot(url, send);
  }

  get count(): number {
    return this.#count;
  }

  /** The exchanges kept for the report, oldest first, masked. */
  exchanges(): Exchange[] {
    return [...this.#first, ...this.#last].map((x) => this.#mask(x));
  }

  #mask(x: RawExchange): Exchange {
    return {
      request: this.#maskRequest(x.request),
      ...(x.response ? { response: this.#maskResponse(x.response) } : {}),
      ...(x.error ? { error: x.error } : {}),
      ...credentialField(x.request, this.masker),
      started_at: x.started_at,
      duration_ms: x.duration_ms,
    };
  }

  /** The last request sent, for the reproduction line. */
  get lastRequest(): HttpRequest | undefined {
    return this.#lastRequest;
  }

  #push(exchange: RawExchange, breach?: Breach['kind'], where?: string): void {
    this.#count += 1;
    if (breach && !this.#breach) this.#breach = { kind: breach, index: this.#count, raw: exchange, ...(where ? { where } : {}) };
    if (this.#first.length < KEEP_FIRST) this.#first.push(exchange);
    else {
      this.#last.push(exchange);
      if (this.#last.length > KEEP_LAST) this.#last.shift();
    }
  }

  #maskRequest(req: HttpRequest): Exchange['request'] {
    const body = req.body === undefined ? undefined : this.#maskClipped(req.body.toString());
    return { method: req.method, url: this.masker.mask(req.url), headers: this.#maskHeaders(req.headers ?? {}), ...(body === undefined ? {} : { body }) };
  }

  #maskResponse(res: HttpResponse): NonNullable<Exchange['response']> {
    return { status: res.status, headers: this.#maskHeaders(res.headers), body: this.#maskClipped(res.text) };
  }

  /** Clips before masking: large list pages cost only what the report keeps of them. */
  #maskClipped(text: string): string {
    if (text.length <= BODY_LIMIT) return this.masker.mask(text);
    const kept = this.masker.mask(text.slice(0, BODY_LIMIT + MASK_MARGIN)).slice(0, BODY_LIMIT);
    return `${kept}… [${text.length - BODY_LIMIT} more characters]`;
  }

  #maskHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      out[k] = k.toLowerCase() === 'authorization' ? maskAuthorization(v) : this.masker.mask(v);
    }
    return out;
  }
}

/**
 * Where an answer may not carry a credential (§2.2: the access token "must be kept private to the application (not in
 * browser cookies …)"; the secret keys are never sent back), looked for by value, not under known keys (issue 32):
 * a header holding any credential the run has seen (a token, a code, a secret), except a redirect to the Redirect URI,
 * which carries the code by §4.1; a body holding one of the secret keys; and a body holding any other credential the run
 * has seen anywhere in its values (a `_links` href, an echoed field), except the pair a token answer issues and what the
 * request itself carried in its body or query (an echo of what the client sent: recorded by noSecretEcho, K23). The
 * bearer travels in the Authorization header, so a body that repeats it is a leak.
 */
export interface LeakScan {
  /** The client and channel secrets: never in any answer. */
  readonly secretKeys?: readonly string[];
  /** Redirect URIs, where a `Location` may carry the code. */
  readonly redirectUris?: readonly string[];
}

function leakIn(req: HttpRequest, res: HttpResponse, masker: Masker, scan: LeakScan): string | undefined {
  const keys = (scan.secretKeys ?? []).filter((secret) => secret.length >= 8);
  // A query carries a key percent-encoded; either form is the key.
  const holdsKey = (text: string) => keys.some((secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)));
  for (const [name, value] of Object.entries(res.headers)) {
    const key = name.toLowerCase();
    // The redirect to the Redirect URI carries the code by §4.1, never a secret key.
    if (key === 'location' && (scan.redirectUris ?? []).some((uri) => value.startsWith(uri))) {
      if (holdsKey(value)) return 'the location header (a secret key on the redirect to the Redirect URI)';
      continue;
    }
    if (masker.changes(value)) return `the ${key} header`;
  }
  if (holdsKey(res.text)) return 'the body (a secret key)';
  // Nearly every body holds no credential at all: only one that does is read again without its own values.
  if (masker.holdsSecret(res.text) && masker.holdsSecret(withoutOwnValues(res.text, req))) return 'the body (a credential the run has seen)';
  return undefined;
}

/** The body without the values it may carry: the token pair a token answer issues, and what the request sent in its body or query. */
function withoutOwnValues(text: string, req: HttpRequest): string {
  const own = [...issuedPair(text), ...requestValues(req)].filter((v) => v.length >= 8).sort((a, b) => b.length - a.length);
  return own.reduce((rest, value) => (rest.includes(value) ? rest.split(value).join('') : rest), text);
}

function issuedPair(text: string): string[] {
  if (!text.includes('"access_token"')) return [];
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return [body.access_token, body.refresh_token].filter((v): v is string => typeof v === 'string');
  } catch {
    return [];
  }
}

/** Every string the request carried in its query and its body (JSON at any depth, or a form). */
function requestValues(req: HttpRequest): string[] {
  const out = [...new URL(req.url).searchParams.values()];
  const body = req.body?.toString();
  if (!body) return out;
  const strings = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) strings(x);
  };
  try {
    strings(JSON.parse(body));
  } catch {
    out.push(...new URLSearchParams(body).values());
  }
  return out;
}

/**
 * The kind of credential a request carried (issue 37): the request's own word, else the kind its bearer was handed out
 * as (src/needs/credentials.ts), else what its form shows (a bearer of unknown kind, Basic, a channel signature, the
 * integration's secret key in a token request).
 */
function credentialField(req: HttpRequest, masker: Masker): { credential?: string } {
  if (req.credential) return { credential: req.credential };
  const headers = Object.entries(req.headers ?? {});
  const header = (name: string) => headers.find(([k]) => k.toLowerCase() === name)?.[1];
  const auth = header('authorization');
  const bearer = auth === undefined ? undefined : /^Bearer\s+(\S+)/i.exec(auth)?.[1];
  if (bearer !== undefined) return { credential: masker.kindOf(bearer) ?? 'bearer' };
  if (auth !== undefined && /^Basic\b/i.test(auth)) return { credential: 'basic' };
  if (header('x-signature') !== undefined) return { credential: 'channel-secret' };
  const body = req.body?.toString() ?? '';
  if (body.includes('client_secret')) return { credential: 'client-secret' };
  return {};
}

/** `Bearer abcd…`: the scheme stays readable, the credential never does, even one the masker has not seen. */
export function maskAuthorization(value: string): string {
  const [scheme, credential] = value.split(/\s+/, 2);
  return credential ? `${scheme} ${maskSecret(credential)}` : maskSecret(value);
}

function learnJson(masker: Masker, text: string): void {
  try {
    masker.learnFrom(JSON.parse(text), ANSWER_SECRET_FIELDS);
  } catch {
    // not JSON after all: nothing to learn
  }
}

/** Only bodies that name a secret field are parsed to learn from (list pages are large and hold none). */
function mayHoldSecrets(text: string): boolean {
  return ANSWER_SECRET_FIELDS.some((field) => text.includes(`"${field}"`));
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
