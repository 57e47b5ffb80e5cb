/**
 * `t.need(kind)` dispatched from one place: the plan names the source that supplies the need to the rule (or the rule
 * is skipped, the reason naming what would let it run), and that source's provider makes the offer.
 */
import { SkipRule } from '../errors.js';
import type { RuleContext } from '../model/context.js';
import type { Need, NeedAsk, NeedOffers, NeedSource } from '../model/needs.js';
import { browserProvider } from './providers/browser.js';
import { controlProvider } from './providers/control.js';
import { operatorProvider } from './providers/operator.js';
import { realTimeProvider } from './providers/real-time.js';
import { settingsProvider } from './providers/settings.js';
import { tokenStoreProvider } from './providers/token-store.js';
import type { Offer, Provider } from './providers/types.js';
import type { RuleNeeds } from './catalogue.js';
import { credentialKindOf, withCredentialKind } from './credentials.js';
import { SupplyPlan } from './plan.js';

/** One provider per source. */
export const PROVIDERS: Readonly<Record<NeedSource, Provider>> = {
  control: controlProvider,
  browser: browserProvider,
  settings: settingsProvider,
  'token-store': tokenStoreProvider,
  operator: operatorProvider,
  'real-time': realTimeProvider,
};

/** What `rule` gets for `kind` in this run, from the source the plan names. */
export async function offerNeed<K extends Need>(t: RuleContext, plan: SupplyPlan, rule: RuleNeeds, kind: K, ask: NeedAsk = {}): Promise<NeedOffers[K]> {
  const supply = plan.supplyOf(kind, ask.soakSeconds === undefined ? rule : { ...rule, soakSeconds: ask.soakSeconds });
  if ('gap' in supply) throw new SkipRule(`needs ${kind}${ask.why ? ` (${ask.why})` : ''}: ${supply.gap}`);
  const offer = PROVIDERS[supply.source].offers[kind] as Offer<K> | undefined;
  if (!offer) throw new Error(`the ${supply.source} provider registers no ${kind}, which src/needs/catalogue.ts says it supplies`);
  // The bearer's kind is taught with it, so that each exchange that carries it says which kind it sent.
  return withCredentialKind(t.masker, credentialKindOf(kind, supply.source), await offer(t));
}

/**
 * A context whose `need` is dispatched as a run's would be, for `rule` on the context's own target (tests that call a
 * step with a context of their own, and the vitest adapter).
 */
export function withNeeds<T extends Omit<RuleContext, 'need'>>(t: T, rule: RuleNeeds = { id: '' }): T & Pick<RuleContext, 'need'> {
  const plan = new SupplyPlan(t.target);
  const context = Object.assign(t, {
    need: <K extends Need>(kind: K, ask?: NeedAsk) => offerNeed(context as unknown as RuleContext, plan, rule, kind, ask),
  });
  return context;
}
