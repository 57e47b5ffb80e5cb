/**
 * The HTTP `Date` of every answer follows the emulator clock, like `server_time` and every expiry: clients compute
 * a token's expiry from `Date` plus `expires_in` (amocrm-js does), so after a control clock advance a `Date` in real
 * time would contradict the `exp` of the very token it came with. Node would otherwise stamp real time.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';

export function installClockDate(app: FastifyInstance, clock: Clock): void {
  // Formatting a date costs more than the rest of this hook; the value changes once a second.
  let second = Number.NaN;
  let value = '';
  app.addHook('onSend', (_request, reply, payload, done) => {
    const now = Math.floor(clock.nowMs() / 1000);
    if (now !== second) {
      second = now;
      value = new Date(now * 1000).toUTCString();
    }
    reply.header('date', value);
    done(null, payload);
  });
}
