/**
 * The rule a piece of work belongs to, carried across awaits (AsyncLocalStorage): the runner runs each rule inside its
 * scope, so that an observer of the kit's requests (a trace, a test that learns which rules reach which emulator
 * branch) can attribute a request to its rule without every step passing the rule id along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

export function inRuleScope<T>(ruleId: string, work: () => T): T {
  return scope.run(ruleId, work);
}

/** The id of the rule whose work is running; undefined outside any rule (the run's own set-up). */
export function currentRuleId(): string | undefined {
  return scope.getStore();
}
