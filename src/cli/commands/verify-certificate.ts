/**
 * `conformance verify-certificate <certificate.json> [--public-key key.pem] [--report report.json]`: checks the
 * signature (with --public-key), then the content, then (with --report) that the report is the one certified.
 */
import { readFile } from 'node:fs/promises';
import { accountsLine, publicKeyFrom, verifyCertificate, type Certificate } from '../../report/certificate.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { loadReport } from '../run-options.js';

interface VerifyFlags {
  readonly report?: string;
  readonly publicKey?: string;
}

async function readText(path: string, flag: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError(flag, `is not a readable ${what}: ${(err as Error).message}`);
  }
}

export const verifyCertificateCommand = defineCommand<VerifyFlags>({
  name: 'verify-certificate <certificate>',
  summary: 'check a certificate\'s signature, content and report',
  description: 'Checks, in this order: with --public-key, that <certificate> (certificate.json) was signed with the '
    + 'private half of that Ed25519 key and not edited in any field since; that its content matches its own SHA-256; '
    + 'with --report, that it covers exactly that report (verdicts, seed, target and the account it said it is, '
    + 'configuration, profile, statement table). Without --public-key only integrity is checked, not origin: anyone holding a report can issue an '
    + 'unsigned certificate, and the command says so. Exit 0 when valid, 1 when not, 2 on an unreadable file or key.',
  arguments: { certificate: 'the certificate.json that certify wrote' },
  examples: [
    ['conformance verify-certificate reports/certificate.json --public-key release.pub.pem', 'who issued it, and that nothing was edited'],
    ['conformance verify-certificate reports/certificate.json --public-key release.pub.pem --report reports/report.json', 'and that it is this report\'s'],
  ],
  flags: (command) => command
    .option('--public-key <public.pem>', 'check the signature with this Ed25519 public key (SPKI PEM): proves the origin')
    .option('--report <report.json>', 'also check that the certificate covers exactly this report'),
  action: async (flags, [path]) => {
    let certificate: Certificate;
    try {
      certificate = JSON.parse(await readFile(path!, 'utf8')) as Certificate;
    } catch (err) {
      throw new ConfigError(path!, `is not a readable certificate: ${(err as Error).message}`);
    }
    if (certificate === null || typeof certificate !== 'object') throw new ConfigError(path!, 'is not a certificate: not a JSON object');
    const publicKey = flags.publicKey !== undefined ? publicKeyFrom(await readText(flags.publicKey, '--public-key', 'key'), '--public-key') : undefined;
    const report = flags.report !== undefined ? await loadReport(flags.report, '--report') : undefined;
    const result = verifyCertificate(certificate, { ...(report ? { report } : {}), ...(publicKey ? { publicKey } : {}) });
    for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
    if (!result.ok) {
      for (const problem of result.problems) process.stderr.write(`invalid: ${problem}\n`);
      return 1;
    }
    const c = certificate;
    const proves = result.origin ? `signed by key ${c.signature!.public_key_sha256.slice(0, 16)}…` : 'integrity only, not origin';
    process.stdout.write(`valid (${proves}): ${c.kit.name} ${c.kit.version}, ${c.target.kind} ${c.target.base_url}, account ${accountsLine(c.target?.accounts)}, seed ${c.seed}, issued ${c.issued_at}${report ? ', matches the report' : ''}\n`);
    return 0;
  },
});
