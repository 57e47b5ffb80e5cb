/**
 * Durable storage of the token pair of a remote target. Refresh tokens are single-use (§3.1): once the server
 * has rotated one, losing the new pair means a person must grant access again. So:
 * - the new pair is written before anything uses it: temporary file, fsync, rename over the old file, fsync of
 *   the directory; mode 0600;
 * - before a refresh is sent, a journal records which refresh token is being exchanged. No client can close the
 *   window between the server rotating the token and the answer reaching disk; if the process dies there, the
 *   journal lets the next run say exactly that instead of failing later with a dead token.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { TokenStoreError } from '../errors.js';

export interface StoredTokens {
  readonly access_token: string;
  readonly refresh_token: string;
  /** Unix seconds at which the access token expires. */
  readonly expires_at: number;
  readonly obtained_at: number;
}

export interface StoreState {
  readonly tokens: StoredTokens | undefined;
  /** A refresh of the stored refresh token was in flight when a process stopped: it may have been rotated. */
  readonly interruptedRefresh: boolean;
}

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex');

export class TokenStore {
  readonly journalPath: string;

  constructor(readonly path: string) {
    this.journalPath = `${path}.refreshing`;
  }

  read(): StoreState {
    const tokens = readJson<StoredTokens>(this.path);
    if (tokens !== undefined && (typeof tokens.refresh_token !== 'string' || typeof tokens.access_token !== 'string')) {
      throw new TokenStoreError(`${this.path} does not hold a token pair`);
    }
    const journal = readJson<{ refreshing: string }>(this.journalPath);
    const interruptedRefresh = tokens !== undefined && journal?.refreshing === fingerprint(tokens.refresh_token);
    return { tokens, interruptedRefresh };
  }

  /** Replaces the stored pair atomically and durably. */
  write(tokens: StoredTokens): void {
    writeDurably(this.path, JSON.stringify(tokens));
  }

  /**
   * Exchanges the stored refresh token with `exchange` and stores the new pair before returning it.
   * The caller uses the returned access token only after this resolves.
   */
  async rotate(exchange: (refreshToken: string) => Promise<{ access_token: string; refresh_token: string; expires_in: number }>, now = () => Math.floor(Date.now() / 1000)): Promise<StoredTokens> {
    const { tokens } = this.read();
    if (!tokens) throw new TokenStoreError(`no token pair in ${this.path}: run \`conformance authorize\` or set REFRESH_TOKEN`);
    writeDurably(this.journalPath, JSON.stringify({ refreshing: fingerprint(tokens.refresh_token) }));
    const pair = await exchange(tokens.refresh_token);
    const next: StoredTokens = { access_token: pair.access_token, refresh_token: pair.refresh_token, expires_at: now() + pair.expires_in, obtained_at: now() };
    this.write(next);
    rmSync(this.journalPath, { force: true });
    return next;
  }
}

function readJson<T>(path: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new TokenStoreError(`${path} is not valid JSON`);
  }
}

function writeDurably(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
