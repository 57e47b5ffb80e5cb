/**
 * `conformance certify`: a full-profile run of every rule, then certificate.json when nothing failed, errored or was
 * flaky; or, with --from, the certificate of a merged report of a sharded full run.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Report } from '../../model/result.js';
import { issueCertificate } from '../../report/certificate.js';
import { defineCommand } from '../command.js';
import { ConfigError } from '../../errors.js';
import { performRun } from '../perform-run.js';
import { addRunFlags, loadReport, refuseForCertify, runCommandOptions, type RunFlags } from '../run-options.js';

interface CertifyFlags extends RunFlags {
  readonly from?: string;
}

export const certifyCommand = defineCommand<CertifyFlags>({
  name: 'certify',
  summary: 'full run; certificate.json if nothing failed',
  description: 'Runs every rule with the full profile (the run flags apply, except --profile, --only, --shard and '
    + '--dry-run) and writes certificate.json into --out when nothing failed, errored or was flaky; exit 1 and no '
    + 'certificate otherwise. With --from, certifies the merged report of a sharded full run instead of running.',
  examples: [
    ['conformance certify --target remote', 'certify the server .env describes'],
    ['conformance certify --from merged/report.json --out merged', 'certify the merged shards of a full run'],
  ],
  flags: (command) => {
    addRunFlags(command, 'certify');
    command.option('--from <report.json>', 'certify this merged report of a sharded full run instead of running');
  },
  action: async (flags, _args, command) => {
    refuseForCertify(command, { from: flags.from !== undefined });
    let report: Report;
    let outDir: string;
    if (flags.from !== undefined) {
      report = await loadReport(flags.from, '--from');
      if (report.options?.profile !== 'full') throw new ConfigError('--from', `names a report of profile ${String(report.options?.profile)}; certification needs the full profile`);
      outDir = resolve(flags.out ?? 'reports');
    } else {
      const s = await runCommandOptions(flags, { profile: 'full' });
      ({ report } = await performRun(s));
      outDir = s.outDir;
    }
    const certificate = issueCertificate(report);
    const path = join(outDir, 'certificate.json');
    await writeFile(path, `${JSON.stringify(certificate, null, 2)}\n`);
    process.stdout.write(`certificate: ${path} (results ${certificate.results_sha256.slice(0, 12)}…, spec ${certificate.spec_sha256.slice(0, 12)}…)\n`);
    return 0;
  },
});
