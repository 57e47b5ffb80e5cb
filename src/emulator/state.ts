/**
 * Issued credentials: authorization codes, refresh tokens and bearer tokens. Plain records with timestamps from
 * the emulator clock; whether one is still valid is decided by the caller at request time against the clock.
 *
 * Every credential issued from one user grant (a code and the refresh chain that follows it) shares a `grantId`,
 * so the whole family can be revoked at once (code reuse per RFC 6749 §4.1.2, and later an administrator
 * deactivating the installation, §3.1).
 */

/** Why a credential was revoked: its code was reused (RFC 6749 §4.1.2), the installation deactivated (§3.1) or disconnected (§6). */
export type RevocationCause = 'code-reuse' | 'deactivation' | 'disconnect';

export interface AuthCode {
  readonly value: string;
  readonly clientId: string;
  readonly userId: number;
  readonly accountId: number;
  readonly grantId: string;
  readonly issuedAtMs: number;
  usedAtMs?: number;
  /** Set when the installation the code was granted for is deactivated or disconnected before the exchange. */
  revokedAtMs?: number;
  revokedBy?: RevocationCause;
}

export interface RefreshRecord {
  readonly value: string;
  readonly clientId: string;
  readonly userId: number;
  readonly accountId: number;
  readonly grantId: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
  usedAtMs?: number;
  revokedAtMs?: number;
  revokedBy?: RevocationCause;
}

/**
 * Anything accepted as `Authorization: Bearer`: access tokens from the exchange now, long-lived tokens (§2.2)
 * later. Keyed by `jti`; opaque tokens (no JWT to carry a jti) are found through their value.
 */
export interface BearerRecord {
  readonly jti: string;
  readonly kind: 'access' | 'long_lived';
  readonly clientId: string;
  readonly userId: number;
  readonly accountId: number;
  /** Absent for long-lived tokens, which belong to no exchange. */
  readonly grantId?: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
  revokedAtMs?: number;
  revokedBy?: RevocationCause;
}

export class CredentialStore {
  readonly codes = new Map<string, AuthCode>();
  readonly refreshTokens = new Map<string, RefreshRecord>();
  readonly bearers = new Map<string, BearerRecord>();
  readonly #opaqueBearers = new Map<string, string>();

  addCode(code: AuthCode): void {
    this.codes.set(code.value, code);
  }

  addRefreshToken(record: RefreshRecord): void {
    this.refreshTokens.set(record.value, record);
  }

  /** `opaqueValue` is given only for bearer tokens that are not JWTs. */
  addBearer(record: BearerRecord, opaqueValue?: string): void {
    this.bearers.set(record.jti, record);
    if (opaqueValue !== undefined) this.#opaqueBearers.set(opaqueValue, record.jti);
  }

  bearerByOpaqueValue(value: string): BearerRecord | undefined {
    const jti = this.#opaqueBearers.get(value);
    return jti === undefined ? undefined : this.bearers.get(jti);
  }

  /** Revokes every bearer and refresh token of a grant; returns how many were newly revoked. */
  revokeGrant(grantId: string, nowMs: number): number {
    let count = 0;
    for (const b of this.bearers.values()) {
      if (b.grantId === grantId && b.revokedAtMs === undefined) { b.revokedAtMs = nowMs; b.revokedBy = 'code-reuse'; count += 1; }
    }
    for (const r of this.refreshTokens.values()) {
      if (r.grantId === grantId && r.revokedAtMs === undefined) { r.revokedAtMs = nowMs; r.revokedBy = 'code-reuse'; count += 1; }
    }
    return count;
  }

  /**
   * Revokes every credential of one installation (an integration in an account: §3.1 deactivation, §6 disconnect),
   * long-lived tokens included; returns how many were newly revoked. A control action, not a hot path.
   */
  revokeInstallation(clientId: string, accountId: number, nowMs: number, cause: RevocationCause = 'deactivation'): number {
    let count = 0;
    const hit = (r: { clientId: string; accountId: number; revokedAtMs?: number }) =>
      r.clientId === clientId && r.accountId === accountId && r.revokedAtMs === undefined;
    const revoke = (r: { revokedAtMs?: number; revokedBy?: RevocationCause }) => { r.revokedAtMs = nowMs; r.revokedBy = cause; count += 1; };
    for (const b of this.bearers.values()) if (hit(b)) revoke(b);
    for (const r of this.refreshTokens.values()) if (hit(r)) revoke(r);
    for (const c of this.codes.values()) if (hit(c) && c.usedAtMs === undefined) revoke(c);
    return count;
  }

  /** Long-lived tokens (§2.2), for the issued-accesses list. */
  longLived(): BearerRecord[] {
    return [...this.bearers.values()].filter((b) => b.kind === 'long_lived');
  }

  clear(): void {
    this.codes.clear();
    this.refreshTokens.clear();
    this.bearers.clear();
    this.#opaqueBearers.clear();
  }

  /** A deep copy of every credential, for a later `restore` (the state a control reset returns to). */
  snapshot(): CredentialSnapshot {
    return structuredClone({ codes: this.codes, refreshTokens: this.refreshTokens, bearers: this.bearers, opaque: this.#opaqueBearers });
  }

  /** Back to exactly the credentials of `snap`, each as it was then (a token revoked since is valid again). */
  restore(snap: CredentialSnapshot): void {
    this.clear();
    const copy = structuredClone(snap);
    for (const [k, v] of copy.codes) this.codes.set(k, v);
    for (const [k, v] of copy.refreshTokens) this.refreshTokens.set(k, v);
    for (const [k, v] of copy.bearers) this.bearers.set(k, v);
    for (const [k, v] of copy.opaque) this.#opaqueBearers.set(k, v);
  }
}

export interface CredentialSnapshot {
  readonly codes: ReadonlyMap<string, AuthCode>;
  readonly refreshTokens: ReadonlyMap<string, RefreshRecord>;
  readonly bearers: ReadonlyMap<string, BearerRecord>;
  readonly opaque: ReadonlyMap<string, string>;
}

/**
 * Every secret the emulator ever issued or held. Append-only, surviving resets: tests grep report files for each
 * value, and a secret issued before a reset may still have leaked into a report.
 */
export class SecretLedger {
  readonly #all = new Set<string>();

  add(secret: string): string {
    this.#all.add(secret);
    return secret;
  }

  list(): string[] {
    return [...this.#all];
  }
}
