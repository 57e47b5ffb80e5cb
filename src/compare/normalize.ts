/**
 * What two servers may differ in without answering differently: their addresses, the settings each is configured with
 * (its client id, channel id…), the run id every created name carries, and the secrets each issues. A normalizer
 * writes each of them as a placeholder (`{base_url}`, `{CHANNEL_ID}`, `{run}`, `{secret}`) in URLs, headers and
 * values, so that what is left can be compared between two targets.
 */
import type { TargetConfig } from '../model/target.js';
import { MASKED_SECRET, type Masker } from '../secrets/mask.js';

/** The run id of src/runner/execute.ts (`run-<seed>-<time>`, both base 36), which every id a rule creates carries. */
const RUN_ID = /run-[0-9a-z]+-[0-9a-z]{6,}/g;
/** A secret as the masker writes it: its first four characters, `…` and its tag. */
const MASKED = MASKED_SECRET;
/** Settings whose values are too common to be read as that setting wherever they occur. */
const SHORTEST_SETTING = 6;
/**
 * The settings that name the server's own things (ids and addresses), which differ between servers by nature; names
 * and texts (CHANNEL_NAME, INTEGRATION_NAME) are what a server answers with, and are compared.
 */
const IDENTITY_SETTING = /(_ID|_IDS|_URL|_URI)(_\d)?$/;

/**
 * Text compared: a longer text (a robustness rule's 10 MB body) is compared by this much and its length, as the
 * report keeps bodies (src/runner/recorder.ts); masking megabytes would cost more than it tells.
 */
const COMPARED_TEXT = 64 * 1024;

export type Normalize = (text: string) => string;

export function normalizerFor(target: TargetConfig, masker: Masker): Normalize {
  const pairs: [string, string][] = [];
  for (const t of [target, target.sandbox].filter((x): x is TargetConfig => x !== undefined)) {
    pairs.push([t.baseUrl, '{base_url}'], [t.chatUrl, '{chat_url}'], [t.authUrl, '{auth_url}']);
    for (const [key, value] of Object.entries(t.settings ?? {})) {
      if (IDENTITY_SETTING.test(key) && value.length >= SHORTEST_SETTING) pairs.push([value, `{${key}}`]);
    }
  }
  // Longest first: an address that extends another is written as its own placeholder, not as the shorter one's.
  const ordered = pairs.filter(([value]) => value).sort((a, b) => b[0].length - a[0].length);
  return (whole) => {
    const text = whole.length > COMPARED_TEXT ? `${whole.slice(0, COMPARED_TEXT)}… [${whole.length - COMPARED_TEXT} more characters]` : whole;
    let out = masker.mask(text).replace(MASKED, '{secret}').replace(RUN_ID, '{run}');
    for (const [value, placeholder] of ordered) if (out.includes(value)) out = out.split(value).join(placeholder);
    return out;
  };
}

/** A path part that is an id: digits, a long token with digits in it, or a name the run made up (it carries the run id). */
function idPart(part: string): string {
  if (part.includes('{run}')) return '{id}';
  if (part.startsWith('{')) return part;
  return /^\d+$/.test(part) || (part.length >= 8 && /\d/.test(part)) ? '{id}' : part;
}

/**
 * The endpoint an exchange called, as the tables name it: the method and the normalized path, each segment that is
 * an id (digits, or a long token with digits in it) written `{id}`, the query left out.
 */
export function endpointOf(method: string, url: string, normalize: Normalize): string {
  const path = normalize(url).split('?')[0]!;
  // A scope id is `<channel>_<account>`: each part is read on its own.
  const segments = path.split('/').map((segment) => segment.split('_').map(idPart).join('_'));
  return `${method} ${segments.join('/')}`;
}
