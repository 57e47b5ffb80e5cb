/**
 * Who a piece of work is for, carried across awaits (AsyncLocalStorage): the runner runs each attempt of a rule inside
 * its scope, and a run resource's opener (RunResources: one chat connection, one token check per run) inside the
 * resource's, so that an observer of the kit's requests (src/runner/trace.ts: the places table, the variations' reach,
 * a comparison's capture) can attribute a request to its sender without every step passing the rule id along.
 *
 * While a trace listens, the kit's requests also carry their sender in a header (`senderHeader`), so that a server in
 * the same process can attribute what it does for a request; never otherwise, so that no service sees it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { channel } from 'node:diagnostics_channel';

/** A rule's attempt (0: the one its verdict stands on; 1: the flaky check's re-run), or a run resource's opener. */
export type Sender =
  | { readonly rule: string; readonly attempt: number; readonly case?: string }
  | { readonly resource: string };

const scope = new AsyncLocalStorage<Sender>();

export function inRuleScope<T>(rule: string, attempt: number, work: () => T): T {
  return scope.run({ rule, attempt }, work);
}

/**
 * Runs `work` as the case `name` of the rule running now (a kind of credential, a handle on a chat): the places table
 * counts a place as reached by a statement only when each of its cases reaches it (src/docs/places.ts). Outside a rule's
 * scope (a resource's opener) it only runs `work`.
 */
export function inCase<T>(name: string, work: () => T): T {
  const sender = scope.getStore();
  return sender && 'rule' in sender ? scope.run({ ...sender, case: name }, work) : work();
}

/**
 * Runs the opener of the run resource `key` as the run's work, not the asking rule's: every rule that asks for the
 * resource shares what it sends, whichever rule happened to ask first.
 */
export function inResourceScope<T>(key: string, open: () => T): T {
  return scope.run({ resource: key }, open);
}

/** What the work running now is for; undefined outside any (the run's own set-up: control resets, the reachability probe). */
export function currentSender(): Sender | undefined {
  return scope.getStore();
}

/** The id of the rule whose work is running; undefined outside any rule (the run's set-up, a resource's opener). */
export function currentRuleId(): string | undefined {
  const sender = scope.getStore();
  return sender && 'rule' in sender ? sender.rule : undefined;
}

/** Told, in the asker's scope, of every ask for a run resource: a trace learns which rules share which resource. */
export const resourceAsked = channel('conformance:run-resource-asked');

export function noteResourceAsked(key: string): void {
  if (resourceAsked.hasSubscribers) resourceAsked.publish({ key });
}

export const SENDER_HEADER = 'x-conformance-trace-sender';

let tags = 0;

/** Makes `senderHeader` name the sender until the returned function is called (a trace's lifetime). */
export function tagRequests(): () => void {
  tags += 1;
  let stopped = false;
  return () => {
    if (!stopped) tags -= 1;
    stopped = true;
  };
}

/** A sender as one string, attempts not told apart: `rule <id>` or `resource <key>` (the header's value). */
export function senderKey(sender: Sender): string {
  return 'rule' in sender ? `rule ${sender.rule}` : `resource ${sender.resource}`;
}

export function senderOfKey(key: string): Sender {
  return key.startsWith('rule ') ? { rule: key.slice('rule '.length), attempt: 0 } : { resource: key.slice('resource '.length) };
}

/** Whether a trace listens: a sender's tag is worth looking up. */
export function tagging(): boolean {
  return tags > 0;
}

/**
 * The header naming the senders of a request (default: the current one) while a trace listens, to be added to it as
 * it goes out; else none. Several when the kit cannot tell which one sent it (a popup's first request): the trace
 * then counts it for each.
 */
export function senderHeader(senders: readonly string[] = currentSenders()): Record<string, string> {
  return tags === 0 || senders.length === 0 ? {} : { [SENDER_HEADER]: senders.join(', ') };
}

function currentSenders(): string[] {
  const sender = currentSender();
  return sender ? [senderKey(sender)] : [];
}

/** The senders a request's header names (`senderKey`s), none when untagged. */
export function sendersOfHeader(value: string | string[] | undefined): string[] {
  return typeof value === 'string' ? value.split(', ') : [];
}
