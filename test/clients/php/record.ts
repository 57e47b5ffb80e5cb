/**
 * Re-records test/clients/fixtures/php-requests.json: the requests the official PHP client (amocrm/amocrm-api-php) sends
 * for the calls of issue 30, as it sends them to a sandbox over https. `npm run record:php` (docs/sandbox.md, "The
 * official PHP client"). Needs `php` with the curl, mbstring and json extensions, and PHP_CLIENT_AUTOLOAD: the
 * autoloader of an install of the client (`composer require amocrm/amocrm-api-php` gives vendor/autoload.php).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../../src/sandbox.js';
import { leadWithDates } from '../records.js';

/** The seed the fixture's ids come from: the replay starts its sandbox with it. */
const SEED = 30;
/** Leads a page in the filtered walk: the pipeline walked holds more, so the client follows next links. */
const PAGE_LIMIT = 10;
/** A time zone east of UTC, as most of the service's users have: the client writes dates as RFC 3339 in PHP's zone. */
const TIMEZONE = 'Europe/Moscow';
const RECORDER = fileURLToPath(new URL('./record.php', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/php-requests.json', import.meta.url));

function fail(message: string): never {
  console.error(`record:php: ${message}`);
  process.exit(1);
}

const autoload = process.env.PHP_CLIENT_AUTOLOAD;
if (!autoload) fail('PHP_CLIENT_AUTOLOAD is not set: the path of vendor/autoload.php of an install of amocrm/amocrm-api-php');
const php = process.env.PHP ?? 'php';

const sandbox = await startSandbox({ https: true, seed: SEED });
try {
  // A date and a date-time value: the client writes both back; the date-time (`date`, the last named) is then set anew.
  const { lead, other, unused, date } = await leadWithDates({ call: (method, path) => sandbox.control(method, path) }, ['date', 'date_time']);
  // The lead's pipeline, when it holds more than a page of leads, or the largest.
  const leads = (await sandbox.control<{ records: { pipeline_id: number }[] }>('GET', '/lists/leads')).records;
  const counts = new Map<number, number>();
  for (const l of leads) counts.set(l.pipeline_id, (counts.get(l.pipeline_id) ?? 0) + 1);
  const own = lead.pipeline_id;
  const pipeline = own !== undefined && (counts.get(own) ?? 0) > PAGE_LIMIT ? own : [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const { CLIENT_ID, CLIENT_SECRET, REDIRECT_URI } = sandbox.settings;
  const { code } = await sandbox.control<{ code: string }>('POST', '/consent', { client_id: CLIENT_ID, decision: 'allow' });
  const account = new URL(sandbox.accountUrl());
  // Not spawnSync: the sandbox answering the client runs in this process's event loop.
  const run = await promisify(execFile)(php, ['-d', `date.timezone=${TIMEZONE}`, RECORDER], {
    maxBuffer: 16 * 1024 * 1024,
    env: {
      ...process.env,
      PHP_CLIENT_AUTOLOAD: autoload,
      ACCOUNT_DOMAIN: account.host,
      ACCOUNT_RESOLVE: `${account.host}:127.0.0.1`,
      CA_FILE: sandbox.tls!.caFile,
      CONTROL_URL: sandbox.settings.CONTROL_URL!,
      CLIENT_ID: CLIENT_ID!, CLIENT_SECRET: CLIENT_SECRET!, REDIRECT_URI: REDIRECT_URI!, AUTH_CODE: code,
      LEAD_ID: String(lead.id), SET_FIELD_ID: String(unused.id), CLEAR_FIELD_ID: String(other.field_id),
      DATE_FIELD_ID: String(date.field_id),
      PIPELINE_ID: String(pipeline), PAGE_LIMIT: String(PAGE_LIMIT),
    },
  }).catch((err: Error & { stdout?: string; stderr?: string }) => fail(`${php} ${RECORDER}: ${err.message}\n${err.stderr ?? ''}${err.stdout ?? ''}`));
  // record.php masks what it knows; this checks it against what the sandbox knows, before anything is written.
  const leaked = Object.entries({ ...sandbox.settings, AUTH_CODE: code })
    .filter(([name, value]) => /SECRET|TOKEN|PASSWORD|CODE/.test(name) && value.length >= 8 && run.stdout.includes(value));
  if (leaked.length) fail(`the recording holds ${leaked.map(([name]) => name).join(', ')}: not written`);
  const recorded = JSON.parse(run.stdout) as { client: string; php: string; guzzle: number; timezone: string; calls: { what: string; error?: string }[] };
  const failed = recorded.calls.filter((c) => c.error);
  if (failed.length) fail(`the client failed:\n${JSON.stringify(failed, null, 2)}`);
  const fixture = {
    client: recorded.client,
    recorded: new Date().toISOString().slice(0, 10),
    with: `PHP ${recorded.php}, guzzle ${recorded.guzzle}, date.timezone ${recorded.timezone}`,
    about: 'Recorded by `npm run record:php` (test/clients/php/record.ts running record.php beside it): the requests the '
      + 'official PHP client sent, over https, to a sandbox started with `seed`, each as guzzle handed it to curl (Host left '
      + 'out: it was the account\'s own host, <subdomain>.sandbox.localhost:<port>), the status it was answered, and what '
      + 'the client read from the answers (`client_read`). Secrets stand as {{client_id}}, {{client_secret}}, {{code}}, '
      + '{{access_token}}, {{refresh_token}}, and those of the refresh, {{access_token_2}}, {{refresh_token_2}}.',
    seed: SEED,
    ids: { lead: lead.id, set_field: unused.id, cleared_field: other.field_id, date_field: date.field_id, pipeline },
    calls: recorded.calls,
  };
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`record:php: ${recorded.calls.length} calls of ${recorded.client} written to ${FIXTURE}`);
} finally {
  await sandbox.close();
}
