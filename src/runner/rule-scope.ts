/**
 * The rule a piece of work runs for: the runner runs each rule inside `inRuleScope`, so whatever the rule starts (its
 * requests, its set-ups, the promises they spawn) can be attributed to it without passing its id down every call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

export function inRuleScope<T>(ruleId: string, run: () => T): T {
  return scope.run(ruleId, run);
}

/** The id of the rule the caller runs for; undefined outside any rule (the run's own set-up). */
export function ruleInScope(): string | undefined {
  return scope.getStore();
}
