/**
 * The chat fixture as builders: a chat rule is its metadata, the request it sends through the rule's session on the
 * configured channel (signed, dated on the target's clock), and the checks of the answer. `setup` adds what the
 * rule's requests need beyond the session (a message to mark, a chat id), made once per run of the rule.
 */
import type fc from 'fast-check';
import type { Check } from '../model/check.js';
import type { RuleContext } from '../model/context.js';
import { exchangeRule, sweepRule } from '../model/define.js';
import type { HttpResponse } from '../model/http.js';
import type { RuleDraft, RuleMeta } from '../model/rule.js';
import { chatSession, type ChatSession } from './chat.js';

interface ChatFixture<F> {
  /** Connect the channel before anything else (the rule's requests all need its scope). */
  readonly connect?: boolean;
  /** What the rule needs beyond the session; without it the fixture is the session itself. */
  readonly setup?: (s: ChatSession) => Promise<F>;
}

/** The session (connected when asked) and whatever `setup` adds. */
export function chatFixture<F = ChatSession>(spec: ChatFixture<F>): (t: RuleContext) => Promise<F> {
  return async (t) => {
    const s = await chatSession(t);
    if (spec.connect) await s.scope();
    return (spec.setup ? await spec.setup(s) : s) as F;
  };
}

type ChatChecks<A extends unknown[]> = readonly Check[] | ((...args: A) => readonly Check[] | Promise<readonly Check[]>);

export interface ChatExchangeSpec<F> extends ChatFixture<F> {
  readonly send: (fixture: F) => Promise<HttpResponse>;
  readonly expect: ChatChecks<[F]>;
  readonly label?: string;
}

/** One chat request, judged by checks. */
export function chatRule<F = ChatSession>(meta: RuleMeta, spec: ChatExchangeSpec<F>): RuleDraft {
  const { expect } = spec;
  return exchangeRule<HttpResponse, F>(meta, {
    setup: chatFixture(spec),
    send: (_t, f) => spec.send(f),
    expect: typeof expect === 'function' ? (_t, f) => expect(f) : expect,
    ...(spec.label ? { label: spec.label } : {}),
  });
}

export interface ChatSweepSpec<T, F> extends ChatFixture<F> {
  /** Every one is sent, every run. */
  readonly named: readonly T[] | ((fixture: F) => readonly T[]);
  /** Then generated ones; without them the sweep alone decides. */
  readonly cases?: (fixture: F) => fc.Arbitrary<T>;
  readonly send: (fixture: F, value: T) => Promise<HttpResponse>;
  /** The checks of one case's answer (accepted or refused, as the case says). */
  readonly expect: ChatChecks<[T, F]>;
  /** Names the case in its findings. */
  readonly label: (value: T) => string;
  readonly what?: string;
}

/** Named cases, then generated ones, each one chat request judged by checks (sweepThenProperty). */
export function chatSweepRule<T, F = ChatSession>(meta: RuleMeta, spec: ChatSweepSpec<T, F>): RuleDraft {
  const { named, cases, expect } = spec;
  return sweepRule<T, HttpResponse, F>(meta, {
    setup: chatFixture(spec),
    named: typeof named === 'function' ? (_t, f) => named(f) : named,
    ...(cases ? { cases: (_t: RuleContext, f: F) => cases(f) } : {}),
    send: (_t, value, f) => spec.send(f, value),
    expect: typeof expect === 'function' ? (_t, value, f) => expect(value, f) : expect,
    label: spec.label,
    ...(spec.what ? { what: spec.what } : {}),
  });
}
