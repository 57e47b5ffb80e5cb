/**
 * §6: one disconnect sends one hook. Judges what `disconnectAndCount` saw: the first hook, and whether another for the
 * same account followed within the window. An identical second hook (a retry) is non_strict; a second hook that
 * differs is a second event, failed (REQ-6-disconnect-hook-once, K31).
 */
import type { Judge } from '../model/check.js';
import type { ReceivedHook } from '../model/context.js';
import { fail, nonStrict, pass } from '../model/outcome.js';

export const hookSentOnce: Judge<{ readonly accountId: number; readonly first: ReceivedHook | undefined; readonly again: ReceivedHook | undefined }> = (c) => {
  if (!c.first) return fail('one hook', 'expected one disconnect hook, observed none within the window');
  if (c.again && sameQuery(c.first, c.again)) return nonStrict('one hook', `expected one hook for account ${c.accountId}, observed an identical second one ${Math.round(c.again.receivedAt - c.first.receivedAt)} ms after the first (a retry: the receiver must tolerate it)`);
  if (c.again) return fail('one hook', `expected one hook for account ${c.accountId}, observed a second one ${Math.round(c.again.receivedAt - c.first.receivedAt)} ms after the first`);
  return pass('one hook', `one hook for account ${c.accountId}, no other within the window`);
};

function sameQuery(a: ReceivedHook, b: ReceivedHook): boolean {
  const sorted = (h: ReceivedHook) => [...h.query].map(([k, v]) => `${k}=${v}`).sort().join('&');
  return a.method === b.method && sorted(a) === sorted(b);
}
