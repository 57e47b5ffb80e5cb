/**
 * `conformance verify-certificate <certificate.json> [--report report.json]`: detects any edit of a certificate, and
 * whether it matches a report.
 */
import { readFile } from 'node:fs/promises';
import { verifyCertificate, type Certificate } from '../../report/certificate.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { loadReport } from '../run-options.js';

interface VerifyFlags {
  readonly report?: string;
}

export const verifyCertificateCommand = defineCommand<VerifyFlags>({
  name: 'verify-certificate <certificate>',
  summary: 'detect any edit of a certificate',
  description: 'Checks that <certificate> (certificate.json) was not edited since it was issued and, with --report, '
    + 'that it covers exactly that report\'s verdicts. Exit 0 when valid, 1 when not.',
  arguments: { certificate: 'the certificate.json that certify wrote' },
  examples: [['conformance verify-certificate reports/certificate.json --report reports/report.json', 'exit 0 when both are untouched']],
  flags: (command) => command.option('--report <report.json>', 'also check that the certificate covers exactly this report\'s verdicts'),
  action: async (flags, [path]) => {
    let certificate: Certificate;
    try {
      certificate = JSON.parse(await readFile(path!, 'utf8')) as Certificate;
    } catch (err) {
      throw new ConfigError(path!, `is not a readable certificate: ${(err as Error).message}`);
    }
    const report = flags.report !== undefined ? await loadReport(flags.report, '--report') : undefined;
    const result = verifyCertificate(certificate, report);
    for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
    if (!result.ok) {
      for (const problem of result.problems) process.stderr.write(`invalid: ${problem}\n`);
      return 1;
    }
    process.stdout.write(`valid: ${certificate.suite.name} ${certificate.suite.version}, ${certificate.target.kind} ${certificate.target.base_url}, seed ${certificate.seed}, issued ${certificate.issued_at}${report ? ', matches the report' : ''}\n`);
    return 0;
  },
});
