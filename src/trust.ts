/**
 * `CA_FILE`: CA certificates the kit trusts beside the system's, for a target whose server certificate a private CA
 * signed (a staging account behind a company CA; `conformance emulator --tls`, which prints it). Every request of the
 * kit's own client goes through it (undici, the early-answer client); Chromium does not read a PEM (docs/sandbox.md
 * "https").
 *
 * Node replaces its default roots when a `ca` is given, so the roots are named again: Mozilla's (`tls.rootCertificates`)
 * and those of NODE_EXTRA_CA_CERTS, which a user who trusted a CA that way keeps trusting.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

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
