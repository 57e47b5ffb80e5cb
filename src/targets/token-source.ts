/**
 * Access tokens for a remote target without a control API: from the token store (written by
 * `conformance authorize`, or seeded once from REFRESH_TOKEN), refreshed at most once per run and only when the
 * stored access token is about to expire; the new pair is on disk before the access token is used.
 */
import type { Masker } from '../secrets/mask.js';
import { refreshGrant, tokenPairOf, tokenRequest } from '../protocol/oauth.js';
import type { TargetConfig } from '../model/target.js';
import type { HttpClient } from './http.js';
import { TokenStoreError } from '../errors.js';
import { TokenStore } from '../secrets/token-store.js';

export class TokenSource {
  #access: Promise<string> | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly target: TargetConfig,
    private readonly client: HttpClient,
    private readonly masker: Masker,
  ) {}

  /** One access token for the whole run. */
  accessToken(): Promise<string> {
    this.#access ??= this.#obtain();
    return this.#access;
  }

  async #obtain(): Promise<string> {
    let { tokens, interruptedRefresh } = this.store.read();
    if (!tokens && this.target.credentials.refreshToken) {
      this.store.write({ access_token: '', refresh_token: this.target.credentials.refreshToken, expires_at: 0, obtained_at: 0 });
      ({ tokens } = this.store.read());
    }
    if (!tokens) throw new TokenStoreError(`no tokens in ${this.store.path}: run \`conformance authorize\` or set REFRESH_TOKEN`);
    this.masker.add(tokens.access_token);
    this.masker.add(tokens.refresh_token);
    if (tokens.access_token && tokens.expires_at - 60 > Date.now() / 1000) return tokens.access_token;
    try {
      const next = await this.store.rotate(async (refreshToken) => {
        const res = await this.client.send(tokenRequest(this.target, refreshGrant(this.target, refreshToken)));
        const pair = tokenPairOf(res.text);
        if (res.status !== 200 || !pair) throw new TokenStoreError(`the refresh exchange answered ${res.status}`);
        this.masker.add(pair.access_token);
        this.masker.add(pair.refresh_token);
        return { access_token: pair.access_token, refresh_token: pair.refresh_token, expires_in: typeof pair.expires_in === 'number' ? pair.expires_in : 0 };
      });
      return next.access_token;
    } catch (err) {
      const hint = interruptedRefresh ? ' (an earlier run stopped while refreshing this token: the service may have rotated it; run `conformance authorize` again)' : '';
      throw new TokenStoreError(`${(err as Error).message}${hint}`);
    }
  }
}
