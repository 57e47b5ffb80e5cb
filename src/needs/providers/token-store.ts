/**
 * The token store of `conformance authorize` (or REFRESH_TOKEN): access tokens refreshed once per run, and a refresh
 * token for cases the server must refuse, which never sends the stored token in a request that could succeed, so the
 * store's pair is never consumed.
 */
import { SkipRule } from '../../errors.js';
import { TokenStore } from '../../secrets/token-store.js';
import type { Provider } from './types.js';

export const tokenStoreProvider: Provider = {
  source: 'token-store',
  offers: {
    'access-token': (t) => {
      if (!t.tokens) throw new SkipRule('needs access-token: the token store holds none: run `conformance authorize`');
      return t.tokens.accessToken();
    },
    'oauth-access-token': (t) => {
      if (!t.tokens) throw new SkipRule('needs oauth-access-token: the token store holds none: run `conformance authorize`');
      return t.tokens.accessToken();
    },
    'refresh-token': (t) => {
      const stored = t.target.tokenStore ? new TokenStore(t.target.tokenStore).read().tokens : undefined;
      const token = stored?.refresh_token || t.credentials.refreshToken;
      if (!token) throw new SkipRule('needs refresh-token: the token store holds none: run `conformance authorize`');
      t.masker.add(token);
      return token;
    },
  },
};
