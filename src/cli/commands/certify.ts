/**
 * `conformance certify`: a full-profile run of every rule, then certificate.json when nothing failed, errored or was
 * flaky; or, with --from, the certificate of a merged report of a sharded full run. With --key the certificate is
 * signed (Ed25519): its origin can be checked, not only its integrity. A report that is not a whole run is refused
 * before anything is written, with the reason.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { allRules } from '../../../specs/index.js';
import type { Report } from '../../model/result.js';
import { canonicalJson, issueCertificate, partialRunReason, privateKeyFrom } from '../../report/certificate.js';
import { defineCommand } from '../command.js';
import { ConfigError, PartialRunRefused } from '../../errors.js';
import { performRun } from '../perform-run.js';
import { addRunFlags, loadReport, refuseForCertify, runCommandOptions, type RunFlags } from '../run-options.js';
import { withRunStatements } from '../run-statements.js';

interface CertifyFlags extends RunFlags {
  readonly from?: string;
  readonly key?: string;
}

/** The signing key a flag names, read before the run so that a bad key costs no run. */
async function signingKey(path: string | undefined): Promise<KeyObject | undefined> {
  if (path === undefined) return undefined;
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (err) {
    throw new ConfigError('--key', `cannot be read: ${(err as Error).message}`);
  }
  return privateKeyFrom(pem, '--key');
}

export const certifyCommand = defineCommand<CertifyFlags>({
  name: 'certify',
  summary: 'full run; certificate.json if nothing failed',
  description: 'Runs every rule with the full profile (the run flags apply, except --profile, --only, --shard and '
    + '--dry-run) and writes certificate.json into --out when nothing failed, errored or was flaky; exit 1 and no '
    + 'certificate otherwise. With --from, certifies the merged report of a sharded full run instead of running; a '
    + 'report of --only or --exclude, of one shard, of shards that overlap or leave rules out, of another kit, of '
    + 'another profile than full, or of an interrupted run is refused (exit 2, one line naming why). With --key the '
    + 'certificate is signed with that Ed25519 private key (`conformance keygen`, or `openssl genpkey -algorithm '
    + 'ed25519`), and `verify-certificate --public-key` proves who issued it; unsigned, it proves integrity only.',
  examples: [
    ['conformance certify --target remote --key release.key.pem', 'certify the server .env describes, signed'],
    ['conformance certify --from merged/report.json --out merged', 'certify the merged shards of a full run'],
  ],
  flags: (command) => {
    addRunFlags(command, 'certify');
    command.option('--from <report.json>', 'certify this merged report of a sharded full run instead of running');
    command.option('--key <private.pem>', 'sign the certificate with this Ed25519 private key (PKCS#8 PEM)');
  },
  action: async (flags, _args, command) => {
    refuseForCertify(command, { from: flags.from !== undefined });
    const key = await signingKey(flags.key);
    const rules = allRules();
    let report: Report;
    let outDir: string;
    if (flags.from !== undefined) {
      const loaded = await loadReport(flags.from, '--from');
      const partial = partialRunReason(loaded, rules);
      if (partial) throw new PartialRunRefused(`--from: no certificate: ${partial}`);
      // The statement table the certificate binds is the one the results give, not whatever the file carries (a
      // shard's own, an older kit's, an edit): recomputed as the run would.
      report = withRunStatements(loaded);
      if (canonicalJson(loaded.statements ?? null) !== canonicalJson(report.statements ?? null)) {
        process.stderr.write(`note: --from: the report's statement table is not the one its results give; the certificate carries the recomputed one (verify it against a report of \`conformance merge\` of this kit)\n`);
      }
      outDir = resolve(flags.out ?? 'reports');
    } else {
      const s = await runCommandOptions(flags, { profile: 'full' });
      ({ report } = await performRun(s));
      outDir = s.outDir;
    }
    const certificate = issueCertificate(report, { rules, ...(key ? { key } : {}) });
    const path = join(outDir, 'certificate.json');
    await writeFile(path, `${JSON.stringify(certificate, null, 2)}\n`);
    const signed = certificate.signature ? `signed by key ${certificate.signature.public_key_sha256.slice(0, 16)}…` : 'unsigned: integrity only, not origin (sign with --key)';
    process.stdout.write(`certificate: ${path} (results ${certificate.results_sha256.slice(0, 12)}…, spec ${certificate.spec_sha256.slice(0, 12)}…; ${signed})\n`);
    return 0;
  },
});
