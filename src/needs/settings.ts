/**
 * Every setting of a run (docs/design.md §4), in one table: the target's own (its URLs, the integration, the chat
 * channel), the ones a provider reads (the administrator's login for the page, the token store), the catalogue's
 * (src/needs/catalogue.ts: the settings that supply a need without a control API), and the run's options. The key
 * list, the secret keys, env.example, the settings block of docs/design.md and the keys `conformance emulator` prints
 * are all derived from it.
 */
import { CATALOGUE, type NeedRow, type Setting, type SettingGroup } from './catalogue.js';
import { EMULATOR_SOURCES } from './emulator-source.js';

const TARGET: readonly SettingGroup[] = [
  {
    keys: [{ key: 'CONFORMANCE_TARGET', example: 'emulator' }],
    comment: 'Target of `conformance run` when --target is not given: emulator (the bundled one, default) or remote.',
    doc: 'the target of `conformance run` without --target',
    own: true,
  },
  {
    keys: [{ key: 'BASE_URL', example: 'https://example.amocrm.ru' }],
    comment: "{base_url}: the customer account's address; serves /oauth2/access_token and /api/v4/...",
    doc: "{base_url}, the customer account's address",
    own: true,
  },
  {
    keys: [{ key: 'AUTH_URL', example: 'https://www.amocrm.ru' }],
    comment: '{auth_url}: address of the access-granting page (/oauth). Defaults to BASE_URL.',
    doc: '{auth_url}, the access-granting page (default `BASE_URL`)',
    own: true,
  },
  {
    keys: [{ key: 'CHAT_URL', example: 'https://amojo.amocrm.ru' }],
    comment: '{chat_url}: address of the chat interface (/v2/origin/custom/...). Defaults to BASE_URL.',
    doc: '{chat_url}, the chat interface (default `BASE_URL`)',
    own: true,
  },
  {
    keys: [{ key: 'HOST_RESOLVE', example: '*.sandbox.localhost=127.0.0.1' }],
    comment: "Host names the kit resolves itself, as curl's --resolve does: <name>=<address> pairs separated by commas, a name *.<domain> covering every name under it. For hosts the machine's DNS does not know (split DNS; `conformance emulator --account-domain <name>`, whose accounts and chat interface sit at <label>.<name>). Every request of the kit and its browser use it.",
    doc: "host names the kit resolves itself (`<name>=<address>`, `*.<domain>` for every name under it), as curl's `--resolve`",
    own: true,
  },
  {
    keys: [{ key: 'CA_FILE', example: '/path/to/ca.pem' }],
    comment: "A PEM file of CA certificates the kit trusts beside the system's (and NODE_EXTRA_CA_CERTS's), as curl's --cacert: for a server certificate a private CA signed (a company CA; `conformance emulator --tls`, which prints it). The kit's own requests use it. The browser rules against such a target also need the kit started with NODE_EXTRA_CA_CERTS set to the same file (Playwright fetches the page's documents in the kit's process); without it they are skipped, saying so (docs/sandbox.md, https).",
    doc: "a PEM file of CA certificates the kit trusts beside the system's, as curl's `--cacert` (the browser rules also need `NODE_EXTRA_CA_CERTS` set to it)",
    own: true,
  },
  {
    keys: [{ key: 'HTTPS_PROXY' }, { key: 'HTTP_PROXY' }, { key: 'NO_PROXY' }],
    comment: "The proxies a remote target is reached through, as curl reads them: HTTPS_PROXY for https URLs, HTTP_PROXY for http URLs (undici's: HTTPS_PROXY unset, https URLs take HTTP_PROXY), NO_PROXY the hosts reached directly (comma-separated names, .domain suffixes, * for all; e.g. HTTPS_PROXY=http://proxy.example:3128, NO_PROXY=localhost,.internal.example). The lower-case forms (https_proxy, http_proxy, no_proxy) are read too and win. Credentials go in the URL (http://user:pass@proxy:3128). The kit's requests, its large-body requests and the browser use them.",
    doc: 'the proxies a remote target is reached through, as curl reads them (lower-case forms too, and winning): `HTTPS_PROXY` for https URLs, `HTTP_PROXY` for http URLs, `NO_PROXY` the hosts reached directly',
  },
  {
    keys: [{ key: 'CONTROL_URL' }],
    comment: 'Control API of the target (docs/design.md §5), optional. Without it, rules that need it are skipped with that reason.',
    doc: 'the control API (optional; without it, each need is supplied by the live paths below or its rules are skipped)',
    own: true,
  },
  {
    keys: [{ key: 'CLIENT_ID' }, { key: 'CLIENT_SECRET', secret: true }, { key: 'REDIRECT_URI', example: 'https://integration.example/oauth/callback' }],
    comment: 'The integration: ID, secret key (a secret: never printed, always masked) and registered Redirect URI.',
    doc: 'the integration: its ID, secret key (a secret) and registered Redirect URI',
    own: true,
  },
  {
    keys: [{ key: 'CHANNEL_ID' }, { key: 'CHANNEL_SECRET', secret: true }, { key: 'CHAT_ACCOUNT_ID' }, { key: 'BOT_ID' }, { key: 'MANAGER_USER_ID' }],
    comment: "The chat channel: id and secret (HMAC-SHA1 signing key; a secret), the account's chat-interface id (amojo_id), the bot id obtained at channel registration, and an account user id for manager messages.",
    doc: "the chat channel: its id and secret (a secret), the account's chat-interface id, the bot id and a manager's user id",
    own: true,
  },
  {
    keys: [{ key: 'CHANNEL_HOOK_API_VERSION', example: 'v1' }],
    comment: "The hook version (v1 or v2) whose hook address the settings of CHANNEL_ID (and of CHANNEL_ID_2) hold. Every connect of the run asks for it; a rule that needs the other version uses a channel of the control API, or is skipped saying so. Default v1, as §2.4's hook_api_version.",
    doc: 'the hook version (`v1` or `v2`, default `v1` as §2.4) whose hook address the configured channels hold; every connect of the run asks for it',
  },
];

/** Settings a provider (src/needs/providers/) reads whatever the need. */
const PROVIDERS: readonly SettingGroup[] = [
  {
    keys: [{ key: 'ADMIN_LOGIN' }, { key: 'ADMIN_PASSWORD', secret: true }],
    comment: "Without a control API (a staging account): the account administrator's login on the access-granting page. The kit drives the page in Chromium with it (log in, pick the account, Allow or Deny; the Redirect URI is intercepted, never loaded) to get fresh authorization codes and consent. Setting ADMIN_LOGIN also asks for the browser rules unless CONFORMANCE_BROWSER=0. The password is a secret: never printed, always masked. Both or neither.",
    doc: "the administrator's login on the access-granting page, which the kit drives in Chromium for fresh codes, consent and token pairs (the password is a secret; both or neither)",
    emulator: EMULATOR_SOURCES.adminLogin,
  },
  {
    keys: [{ key: 'REFRESH_TOKEN', secret: true }],
    comment: 'A refresh token to start from (single use: the kit stores the new one). Secret.',
    doc: 'a refresh token that seeds the token store (a secret)',
  },
  {
    keys: [{ key: 'TOKEN_STORE' }],
    comment: 'Where the kit keeps the token pair of a remote target (written by `conformance authorize`, rotated durably on every refresh, mode 0600). Default .tokens.json; never commit it.',
    doc: 'where the token pair of a remote target is kept (default `.tokens.json`)',
  },
];

const RUN: readonly SettingGroup[] = [
  {
    keys: [{ key: 'HOOK_LISTEN' }],
    comment: 'host:port where the kit listens for the disconnect hook (capability `hook`), e.g. 127.0.0.1:8765.',
    doc: 'the address the kit listens on for the disconnect hook',
    own: true,
  },
  {
    keys: [{ key: 'CONFORMANCE_BROWSER', example: '0' }],
    comment: "1: run the browser rules of the access-granting page (capability `browser`) against a remote target, in Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium). The embedded emulator always runs them when it is there.",
    doc: '1: the browser rules run against a remote target',
    own: true,
  },
  {
    keys: [{ key: 'RATE_LIMIT_RPS', example: '7' }],
    comment: "Client-side request ceiling of the account API and OAuth on remote targets, requests per second (default 7, the service's public limit per integration; 0 for none, as for a local emulator). A 429 answer pauses this interface alone for its Retry-After, then retries; one still answered 429 after 5 retries ends its rule errored.",
    doc: 'the request ceiling of the account API and OAuth on remote targets',
    own: true,
  },
  {
    keys: [{ key: 'CHAT_RATE_LIMIT_RPS', example: '7' }],
    comment: 'Client-side request ceiling of the chat interface (CHAT_URL, another service with a limit of its own), requests per second (default: RATE_LIMIT_RPS; 0 for none). It runs beside the account API\'s budget, and a 429 from it pauses chat requests alone. The control API has no ceiling: it is no part of the service.',
    doc: 'the request ceiling of the chat interface on remote targets (default `RATE_LIMIT_RPS`)',
  },
  {
    keys: [{ key: 'EFFECT_WINDOW_MS' }],
    comment: 'The longest the kit watches for an asynchronous effect, in milliseconds (default: each rule\'s window, 15 s polls and 30 s hooks, docs/verdicts.md). Only for a target that acts before it answers, such as the emulator (which prints 1000): on a real service a shorter window can pass a hook that is forbidden but late. Recorded in the report.',
    doc: "the longest the kit watches for an asynchronous effect; only for a target that acts before it answers, such as the emulator, and recorded in the report's options",
    own: true,
  },
  {
    keys: [{ key: 'CONFORMANCE_SEED' }],
    comment: 'Seed of the generated cases: the same seed gives the same requests.',
    doc: 'the seed of the generated cases',
  },
];

const rows: readonly NeedRow[] = Object.values(CATALOGUE);

/** The catalogue's settings groups, in catalogue order: a need's settings, all set, supply it. */
export const NEED_SETTING_GROUPS: readonly SettingGroup[] = rows.flatMap((r) => (r.settings ? [r.settings] : []));

/** Every settings group, in the order env.example and docs/design.md §4 list them. */
export const SETTING_GROUPS: readonly SettingGroup[] = [...TARGET, ...PROVIDERS, ...NEED_SETTING_GROUPS, ...RUN];

const settings: readonly Setting[] = SETTING_GROUPS.flatMap((g) => g.keys);

/** Every key the kit reads. */
export const ENV_KEYS: readonly string[] = settings.map((s) => s.key);

/** Keys whose values are secrets: never printed, always masked (docs/design.md §6). */
export const SECRET_KEYS: readonly string[] = settings.filter((s) => s.secret).map((s) => s.key);

/** The keys `conformance emulator` prints: the emulator's own, and those of every group it can make values for. */
export const EMULATOR_KEYS: readonly string[] = SETTING_GROUPS.filter((g) => g.own || g.emulator).flatMap((g) => g.keys.map((s) => s.key));

/** Groups whose values `conformance emulator` makes through the control API, in env.example order. */
export const EMULATOR_GROUPS: readonly Required<Pick<SettingGroup, 'emulator' | 'keys'>>[] = SETTING_GROUPS.filter((g): g is SettingGroup & Required<Pick<SettingGroup, 'emulator'>> => g.emulator !== undefined);

/** A comment wrapped at 118 columns, each line starting with `# `. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > 118 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  return [...lines, line];
}

/** env.example: every setting, with its comment and its example value. */
export function envExampleText(): string {
  const head = [
    '# Settings of a conformance run (docs/design.md §4). Copy to .env, or let `conformance emulator > .env` write one.',
    '# Every key can also come from the process environment, which wins over this file.',
    '# Generated from src/needs/settings.ts and src/needs/catalogue.ts by `conformance docs`.',
  ];
  const groups = SETTING_GROUPS.map((g) => [...commentLines(g.comment), ...g.keys.map((s) => `${s.key}=${s.example ?? ''}`)].join('\n'));
  return `${head.join('\n')}\n\n${groups.join('\n')}\n`;
}

/** The settings block of docs/design.md §4: one line per group, its keys and what they are. */
export function settingsMarkdown(): string {
  return SETTING_GROUPS.map((g) => `- ${g.keys.map((s) => `\`${s.key}\``).join(', ')}: ${g.doc}.`).join('\n');
}
