/**
 * `CA_FILE`: CA certificates the kit trusts beside the system's, for a target whose server certificate a private CA
 * signed (a staging account behind a company CA; `conformance emulator --tls`, which prints it). Every request of the
 * kit's own client goes through it (undici, the early-answer client). Chromium takes no CA on its command line, only
 * server keys whose certificate errors it ignores: the kit hands it the keys of the target's servers it verified
 * against CA_FILE itself (`verifiedServerKeys`, docs/sandbox.md "https"); the page's documents, which Playwright fetches
 * in this process, get CA_FILE for those servers (src/browser/process-trust.ts).
 *
 * Node replaces its default roots when a `ca` is given, so the roots are named again: Mozilla's (`tls.rootCertificates`)
 * and those of NODE_EXTRA_CA_CERTS, which a user who trusted a CA that way keeps trusting.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { checkServerIdentity, connect, createSecureContext, rootCertificates, type PeerCertificate, type SecureContext } from 'node:tls';
import type { hostLookup } from './host-resolve.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The PEM certificates of a file's text (anything around them, as in a bundle with comments, is left out). */
export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

/**
 * The certificates of a CA file, PEM, each one checked to parse; throws an Error whose message says what is wrong
 * (the caller names the setting).
 */
export function readCaFile(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `names no file: "${path}"` : `cannot be read: "${path}" (${code ?? (err as Error).message})`);
  }
  const certs = pemCertificates(text);
  if (certs.length === 0) throw new Error(`holds no PEM certificate (-----BEGIN CERTIFICATE-----): "${path}"`);
  certs.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch (err) {
      throw new Error(`holds a certificate that does not parse (number ${i + 1} in "${path}"): ${(err as Error).message}`);
    }
  });
  return certs.join('\n');
}

/** NODE_EXTRA_CA_CERTS's certificates: Node reads them at start and drops them with the defaults when a `ca` is given. */
function extraCaCerts(): string[] {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return [];
  try {
    return pemCertificates(readFileSync(path, 'utf8'));
  } catch {
    // Node warned at start already and trusts nothing from it either.
    return [];
  }
}

/** The `ca` of a TLS connection that trusts `pem` beside the system's roots. */
export function trustedCas(pem: string): string[] {
  return [...rootCertificates, ...extraCaCerts(), ...pemCertificates(pem)];
}

/**
 * A TLS context that trusts `pem` beside the system's roots, built once: given as `ca`, the ~150 roots would be parsed
 * again for every connection (about 20 ms of the thread each), and a client opens one per early-answer request and
 * whenever a server closes.
 */
export function trustContext(pem: string): SecureContext {
  return createSecureContext({ ca: trustedCas(pem) });
}

/** What one TLS handshake showed: the leaf certificate, and whether its chain and name verify against `ca`. */
function handshake(url: URL, ca: string[], lookup: ReturnType<typeof hostLookup> | undefined): Promise<{ cert: PeerCertificate; verified: boolean } | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({
      host, port: Number(url.port || 443), rejectUnauthorized: false, timeout: 5_000,
      ...(isIP(host) ? {} : { servername: host }), ca, ...(lookup ? { lookup: lookup as never } : {}),
    }, () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      resolve(cert.raw ? { cert, verified: socket.authorized && checkServerIdentity(host, cert) === undefined } : undefined);
    });
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => resolve(undefined));
    socket.on('close', () => resolve(undefined));
  });
}

/**
 * The server keys (base64 SHA-256 of each leaf's SubjectPublicKeyInfo, Chromium's `--ignore-certificate-errors-spki-list`)
 * of the https origins whose certificate verifies, chain and name, against CA_FILE and not against Mozilla's roots
 * alone: the browser then trusts what the kit's own client trusts, and nothing the system already vouches for is
 * eased. An origin that does not verify either way is left out, so the browser refuses it as the kit's client does.
 */
export async function verifiedServerKeys(origins: readonly string[], pem: string, lookup?: ReturnType<typeof hostLookup>): Promise<string[]> {
  const urls = [...new Map(origins.map((o) => new URL(o)).filter((u) => u.protocol === 'https:').map((u) => [u.host, u])).values()];
  const keys = await Promise.all(urls.map(async (url) => {
    const withCa = await handshake(url, trustedCas(pem), lookup);
    if (!withCa?.verified) return undefined;
    // Mozilla's roots, close to what Chromium trusts of its own: not NODE_EXTRA_CA_CERTS, which Chromium does not read.
    if ((await handshake(url, [...rootCertificates], lookup))?.verified) return undefined;
    const spki = new X509Certificate(withCa.cert.raw).publicKey.export({ type: 'spki', format: 'der' });
    return createHash('sha256').update(spki).digest('base64');
  }));
  return [...new Set(keys.filter((k): k is string => k !== undefined))];
}
