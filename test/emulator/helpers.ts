/** Shared helpers for the emulator tests: real HTTP against an ephemeral-port instance. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { signChatRequest } from '../../src/protocol/chat-signature.js';

/** Where the chat interface's routes live (§4.3). */
export const CHAT_PREFIX = '/v2/origin/custom';

export interface ChatRequestOptions {
  /** The body as sent, instead of `body` as JSON (malformed or exact bytes). */
  readonly raw?: string;
  /** Signs with this secret instead of the channel's. */
  readonly secret?: string;
  /** Signs this body instead of the one sent (a tampered body). */
  readonly signBody?: string;
  readonly zone?: 'GMT' | number;
  /** Added after signing (they may replace signed ones). */
  readonly headers?: Record<string, string>;
}

export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly json: any;
  readonly headers: Headers;
}

export class Harness {
  private constructor(readonly emu: RunningEmulator, readonly env: Record<string, string>) {}

  static async start(options: EmulatorOptions = {}): Promise<Harness> {
    const emu = await startEmulator(options);
    return new Harness(emu, emu.env());
  }

  get url(): string {
    return this.emu.url;
  }

  async request(method: string, path: string, init: { body?: string | Uint8Array; headers?: Record<string, string> } = {}): Promise<Reply> {
    const res = await fetch(`${this.url}${path}`, { method, ...init });
    const text = await res.text();
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json, headers: res.headers };
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  }

  postForm(path: string, body: Record<string, string>): Promise<Reply> {
    return this.request('POST', path, {
      body: new URLSearchParams(body).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  /** A chat-interface request to `CHAT_PREFIX + path`, signed as §5.2 says with the channel secret. */
  chat(method: string, path: string, body?: unknown, o: ChatRequestOptions = {}): Promise<Reply> {
    const url = `${CHAT_PREFIX}${path}`;
    const text = o.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const headers = signChatRequest({ method, url, body: o.signBody ?? text, secret: o.secret ?? this.env.CHANNEL_SECRET!, ...(o.zone !== undefined && { zone: o.zone }) });
    return this.request(method, url, { ...(text !== undefined && { body: text }), headers: { ...headers, ...o.headers } });
  }

  /** Connects the configured channel in the configured chat account; its scope_id. */
  async connectChannel(): Promise<string> {
    return (await this.chat('POST', `/${this.env.CHANNEL_ID}/connect`, { account_id: this.env.CHAT_ACCOUNT_ID })).json.scope_id as string;
  }

  reset(): Promise<Reply> {
    return this.request('POST', '/_control/reset');
  }

  advance(seconds: number): Promise<Reply> {
    return this.postJson('/_control/clock', { advance_seconds: seconds });
  }

  async code(state?: string): Promise<string> {
    const r = await this.postJson('/_control/consent', { client_id: this.env.CLIENT_ID, decision: 'allow', ...(state !== undefined && { state }) });
    if (r.status !== 200) throw new Error(`consent failed: ${r.status} ${r.text}`);
    return r.json.code as string;
  }

  codeRequest(code: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      client_id: this.env.CLIENT_ID,
      client_secret: this.env.CLIENT_SECRET,
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.env.REDIRECT_URI,
      ...overrides,
    };
  }

  refreshRequest(refreshToken: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { client_id: this.env.CLIENT_ID, grant_type: 'refresh_token', refresh_token: refreshToken, ...overrides };
  }

  exchange(body: unknown): Promise<Reply> {
    return this.postJson('/oauth2/access_token', body);
  }

  /** A fresh token pair through consent and the code grant. */
  async tokens(): Promise<{ access_token: string; refresh_token: string; expires_in: number; server_time: number; code: string }> {
    const code = await this.code();
    const r = await this.exchange(this.codeRequest(code));
    if (r.status !== 200) throw new Error(`exchange failed: ${r.status} ${r.text}`);
    return { ...r.json, code };
  }

  account(token: string | undefined, query = ''): Promise<Reply> {
    return this.request('GET', `/api/v4/account${query}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  }

  close(): Promise<void> {
    return this.emu.close();
  }
}

export const CODE_TTL_SECONDS = 20 * 60;
