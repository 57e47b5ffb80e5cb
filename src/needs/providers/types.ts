/**
 * A provider: one source of needs (src/model/needs.ts NeedSource) and what it offers for each need it registers.
 * The catalogue (src/needs/catalogue.ts) says which sources supply a need; test/needs/catalogue.test.ts checks that
 * each of them registers it, and that no provider registers a need the catalogue does not give its source.
 */
import type { RuleContext } from '../../model/context.js';
import type { Need, NeedOffers, NeedSource } from '../../model/needs.js';

export type Offer<K extends Need> = (t: RuleContext) => NeedOffers[K] | Promise<NeedOffers[K]>;

export interface Provider {
  readonly source: NeedSource;
  readonly offers: { readonly [K in Need]?: Offer<K> };
}
