/**
 * Checks of the account-side effects of incoming messages (§2.6, §4.3 rule 2): counted per conversation after each
 * message, so that "one lead for the first message" and "one notification per message" are told apart from totals.
 */
import type { Judge } from '../model/check.js';
import { fail, nonStrict, pass } from '../model/outcome.js';

/** The unsorted leads and notifications one conversation has caused so far (control API; src/steps/chat-effects.ts). */
export interface EffectCounts {
  readonly leads: number;
  readonly notifications: number;
}

export function leadsAre(n: number): Judge<EffectCounts> {
  return (c) => (c.leads === n ? pass('unsorted leads', `${n}`) : fail('unsorted leads', `expected ${n} unsorted lead(s) for the conversation, observed ${c.leads}`));
}

export function notificationsAre(n: number): Judge<EffectCounts> {
  return (c) => (c.notifications === n ? pass('notifications', `${n}`) : fail('notifications', `expected ${n} notification(s) for the conversation, observed ${c.notifications}`));
}

/** Hooks counted for a scope: `expected` of them, no more (none after a disconnect, one per account message before). */
/** At least one outgoing-message hook: a second one for the same message (a retry) is not judged here (C18 of the review). */
export function someHooks(when: string): Judge<number> {
  return (n) => (n >= 1 ? pass(`hooks ${when}`, `${n}`) : fail(`hooks ${when}`, `expected an outgoing-message hook ${when}, observed none`));
}

export function hooksAre(expected: number, when: string): Judge<number> {
  return (n) => (n === expected ? pass(`hooks ${when}`, `${n}`) : fail(`hooks ${when}`, `expected ${expected} outgoing-message hook(s) ${when}, observed ${n}`));
}

/** The first incoming message's notifications: one passes; two are non_strict (C40, REQ-2.6-first-message-only); else fails. */
export const firstNotifications: Judge<EffectCounts> = (c) => {
  if (c.notifications === 1) return pass('notifications', '1');
  if (c.notifications === 2) return nonStrict('notifications', 'expected 1 notification for the first message, observed 2');
  return fail('notifications', `expected 1 notification for the first message, observed ${c.notifications}`);
};
