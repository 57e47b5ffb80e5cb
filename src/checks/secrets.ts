/**
 * `should`: an error body never echoes a secret the client holds (the client secret, a valid refresh token). Values
 * the client sent that are not secrets it holds (a spent or made-up code, a wrong secret) are recorded when echoed,
 * not failed (REQ-4.1-exchange-no-secret-echo, K23).
 */
import { fail, observed, pass } from '../model/outcome.js';
import type { Check } from '../model/check.js';
import { requestField } from './json.js';

const masked = (values: readonly string[]) => values.map((s) => `${s.slice(0, 4)}…`).join(', ');

/**
 * `sent` are secrets the client holds whatever it sent: echoed, they fail. `requestFields` names fields of the request
 * this answers (JSON or form body) and `recorded` lists values whose echo is only recorded: a code or a wrong secret.
 */
export function noSecretEcho(sent: readonly (string | undefined)[], options: { requestFields?: readonly string[]; recorded?: readonly (string | undefined)[] } = {}): Check {
  return (res) => {
    const secrets = sent.filter((s): s is string => typeof s === 'string' && s.length >= 8);
    const fromRequest = [...(options.requestFields ?? []).map((name) => requestField(res, name)), ...(options.recorded ?? [])];
    const others = fromRequest.filter((s): s is string => typeof s === 'string' && s.length >= 8 && !secrets.includes(s));
    const echoed = secrets.filter((s) => res.text.includes(s));
    if (echoed.length > 0) return fail('no secret echoed', `the response body repeats ${echoed.length} secret value(s) the client holds (masked: ${masked(echoed)})`);
    const repeated = others.filter((s) => res.text.includes(s));
    return repeated.length === 0
      ? pass('no secret echoed')
      : observed('no secret echoed', `the response body repeats ${repeated.length} value(s) the client sent that are not its secrets (a code or a wrong value; masked: ${masked(repeated)}), recorded`);
  };
}
