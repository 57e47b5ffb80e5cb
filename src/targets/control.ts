/**
 * Client of a target's control API (docs/design.md §5; the emulator's is documented in docs/control-api.md).
 * Control calls are plumbing, not protocol: they are not recorded as exchanges, but every secret they
 * return is taught to the masker before anything can print it.
 */
import type { Masker } from '../secrets/mask.js';
import type { HttpClient } from './http.js';
import { ControlError } from '../errors.js';
import type { ConsentOptions, ConsentResult } from '../model/control.js';

export class ControlClient {
  constructor(
    private readonly baseUrl: string,
    private readonly client: HttpClient,
    private readonly masker: Masker,
    private readonly defaultClientId: string,
  ) {}

  async call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const res = await this.client.send({
      method,
      url: `${this.baseUrl}${path}`,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new ControlError(path, res.status, this.masker.mask(res.text));
    if (!res.text) return undefined as T;
    const parsed = JSON.parse(res.text) as T;
    this.masker.learnFrom(parsed);
    return parsed;
  }

  /** Acts as the user on the access-granting page; with `allow`, the answer carries a fresh authorization code. */
  consent(options: ConsentOptions = {}): Promise<ConsentResult> {
    const { decision = 'allow', clientId = this.defaultClientId, ...rest } = options;
    return this.call<ConsentResult>('POST', '/consent', { ...rest, client_id: clientId, decision });
  }

  /** A fresh authorization code for the configured integration. */
  async freshCode(): Promise<string> {
    const { code } = await this.consent();
    if (!code) throw new Error('control API /consent answered no code for decision "allow"');
    return code;
  }

  async now(): Promise<number> {
    return (await this.call<{ now: number }>('GET', '/clock')).now;
  }

  async advanceClock(seconds: number): Promise<number> {
    return (await this.call<{ now: number }>('POST', '/clock', { advance_seconds: seconds })).now;
  }
}
