/**
 * https for the emulator (issue 30: every real client is https-only). A certificate authority made for the sandbox
 * signs a server certificate for the loopback names and for every account's own host name
 * (`<subdomain>.<accountDomain>`), so a client that trusts the one CA file (`NODE_EXTRA_CA_CERTS`, curl's `--cacert`,
 * an agent's `ca`) reaches any account without a TLS terminator in front (docs/sandbox.md, "https").
 *
 * The CA is kept in a directory and reused while it is valid: a CA file trusted once (in a shell profile, a CI
 * variable) stays trusted across restarts of `conformance emulator --tls`. The server certificate is made anew at
 * every start, for the names asked for then.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostLookup } from '../host-resolve.js';

/** Loaded only when https is asked for: it takes a third of a second, which a plain-http start does without. */
const certificates = async () => (await import('selfsigned')).default;

/**
 * The domain under which each account has a host of its own, `<subdomain>.sandbox.localhost`. Three labels: Node, curl
 * and browsers refuse a wildcard certificate for a name of two labels (`*.localhost`).
 */
export const DEFAULT_ACCOUNT_DOMAIN = 'sandbox.localhost';

export interface HttpsOptions {
  /**
   * Where the CA (`ca.pem`, `ca-key.pem`) is kept and reused, and the server certificate written. Default: a fresh
   * temporary directory, removed when the emulator closes.
   */
  readonly dir?: string;
  /** Each account is also served at `https://<subdomain>.<accountDomain>:<port>` (default `sandbox.localhost`). */
  readonly accountDomain?: string;
  /** More names the certificate covers (DNS names or IP addresses), beyond the loopback ones and the listen host. */
  readonly hosts?: readonly string[];
}

export interface TlsMaterial {
  /** The server's key and certificate (PEM), for `https.createServer`. */
  readonly key: string;
  readonly cert: string;
  /** The CA certificate (PEM) a client trusts. */
  readonly ca: string;
  /** Its path: the value of `NODE_EXTRA_CA_CERTS`, or curl's `--cacert`. */
  readonly caFile: string;
  readonly accountDomain: string;
  /** Removes what was made in a temporary directory (nothing when `dir` was given). */
  dispose(): Promise<void>;
}

const CA_SUBJECT = [{ name: 'commonName', value: 'conformance-kit sandbox CA' }, { name: 'organizationName', value: 'conformance-kit' }];
const DAY_MS = 86_400_000;
const IP = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/;

/** A CA in `dir`, reused when one is there and valid for at least a day more, else made (and written atomically). */
async function certificateAuthority(dir: string): Promise<{ key: string; cert: string }> {
  const certFile = join(dir, 'ca.pem');
  const keyFile = join(dir, 'ca-key.pem');
  try {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    if (new Date(new X509Certificate(cert).validTo).getTime() > Date.now() + DAY_MS) return { key, cert };
  } catch {
    // None yet, or unreadable: made below.
  }
  const made = await (await certificates()).generate(CA_SUBJECT, {
    keyType: 'ec', algorithm: 'sha256', notAfterDate: new Date(Date.now() + 825 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  await mkdir(dir, { recursive: true });
  // Written under temporary names then renamed: two emulators starting on one directory never read half a file. The
  // key goes first, so a ca.pem present always has its key beside it.
  const tag = randomUUID();
  await writeFile(`${keyFile}.${tag}`, made.private, { mode: 0o600 });
  await writeFile(`${certFile}.${tag}`, made.cert);
  await rename(`${keyFile}.${tag}`, keyFile);
  await rename(`${certFile}.${tag}`, certFile);
  // Another start may have renamed its own pair in between: whatever pair is on disk now is the one both use.
  const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  return { key, cert };
}

/** The CA and a server certificate for the loopback names, `listenHost`, each account's host and `options.hosts`. */
export async function tlsMaterial(listenHost: string, options: HttpsOptions = {}): Promise<TlsMaterial> {
  const accountDomain = options.accountDomain ?? DEFAULT_ACCOUNT_DOMAIN;
  if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i.test(accountDomain)) {
    throw Object.assign(new RangeError(`https.accountDomain must be a DNS name of two labels or more; got "${accountDomain}"`), { code: 'ERR_EMULATOR_OPTION' });
  }
  const temporary = options.dir === undefined;
  const dir = options.dir ?? await mkdtemp(join(tmpdir(), 'conformance-tls-'));
  const ca = await certificateAuthority(dir);
  const names = new Set(['localhost', '127.0.0.1', '::1', accountDomain, `*.${accountDomain}`, ...(options.hosts ?? [])]);
  const bare = listenHost.replace(/^\[|\]$/g, '');
  if (bare !== '' && bare !== '0.0.0.0' && bare !== '::') names.add(bare);
  const altNames = [...names].map((n) => (IP.test(n) ? { type: 7 as const, ip: n } : { type: 2 as const, value: n }));
  const server = await (await certificates()).generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256', notAfterDate: new Date(Date.now() + 30 * DAY_MS),
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  await writeFile(join(dir, 'server.pem'), server.cert);
  await writeFile(join(dir, 'server-key.pem'), server.private, { mode: 0o600 });
  return {
    key: server.private,
    cert: server.cert,
    ca: ca.cert,
    caFile: join(dir, 'ca.pem'),
    accountDomain,
    dispose: async () => { if (temporary) await rm(dir, { recursive: true, force: true }); },
  };
}

/**
 * A `dns.lookup` for Node agents (`new https.Agent({ lookup })`, undici's `new Agent({ connect: { lookup } })`) that
 * resolves `domain` and every name under it to `address`, and any other name as `dns.lookup` does: the way to point a
 * client that builds `https://{subdomain}.<domain>` at the sandbox without editing /etc/hosts.
 */
export function lookupUnder(domain: string, address = '127.0.0.1') {
  return hostLookup([{ name: `*.${domain.toLowerCase()}`, address }]);
}

