/**
 * `should`: an error body never echoes a secret the client sent (client secret, code, refresh token).
 */
import { fail, pass } from '../model/outcome.js';
import type { Check } from '../model/check.js';
import { requestField } from './json.js';

/**
 * `sent` are secrets the client holds whatever it sent; `requestFields` names fields of the request this answers
 * (JSON or form body) whose values count as sent secrets too, a fresh code or a wrong secret.
 */
export function noSecretEcho(sent: readonly (string | undefined)[], options: { requestFields?: readonly string[] } = {}): Check {
  return (res) => {
    const fromRequest = (options.requestFields ?? []).map((name) => requestField(res, name));
    const secrets = [...sent, ...fromRequest].filter((s): s is string => typeof s === 'string' && s.length >= 8);
    const echoed = secrets.filter((s) => res.text.includes(s));
    return echoed.length === 0
      ? pass('no secret echoed')
      : fail('no secret echoed', `the response body repeats ${echoed.length} secret value(s) the client sent (masked: ${echoed.map((s) => `${s.slice(0, 4)}…`).join(', ')})`);
  };
}
