/**
 * `should`: an error body never echoes a secret the client sent (client secret, code, refresh token).
 */
import { fail, pass } from '../model/outcome.js';
import type { Check } from '../model/check.js';

export function noSecretEcho(sent: readonly (string | undefined)[]): Check {
  const secrets = sent.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  return (res) => {
    const echoed = secrets.filter((s) => res.text.includes(s));
    return echoed.length === 0
      ? pass('no secret echoed')
      : fail('no secret echoed', `the response body repeats ${echoed.length} secret value(s) the client sent (masked: ${echoed.map((s) => `${s.slice(0, 4)}…`).join(', ')})`);
  };
}
