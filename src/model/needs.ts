/**
 * What a rule needs beyond the protocol it checks: a fixture (a fresh code, consent on the page, a long-lived token), a
 * person's act, time passing, or the target's own view of its state. `requires` names the contract's capabilities
 * (control, browser, hook, write); `needs` names these finer things, which a target may supply without a control API.
 *
 * The needs are declared once, in src/needs/catalogue.ts, which fills in `NeedOffers` below (declaration merging): one
 * member per need, typed as what `t.need(kind)` gives a step. The model names no need itself, so that adding one touches
 * the catalogue and the provider that supplies it, and nothing here.
 */

/** Filled in by src/needs/catalogue.ts: each need, and what a step receives when it asks for it. */
export interface NeedOffers {}

export type Need = keyof NeedOffers & string;

/** How a target supplies a need in this run: one provider per source (src/needs/providers/). */
export type NeedSource =
  /** The target's control API. */
  | 'control'
  /** The access-granting page driven in Chromium with ADMIN_LOGIN and ADMIN_PASSWORD. */
  | 'browser'
  /** A value from the settings (AUTH_CODE, LONG_LIVED_TOKEN, a second channel or integration, a channel's name, ...). */
  | 'settings'
  /** The token store of `conformance authorize` (or REFRESH_TOKEN). */
  | 'token-store'
  /** A person at the terminal, asked by the kit. */
  | 'operator'
  /** Waiting in real time (--profile soak). */
  | 'real-time';

export const NEED_SOURCES: readonly NeedSource[] = ['control', 'browser', 'settings', 'token-store', 'operator', 'real-time'];

/** What a step may say when it asks for a need: how long it must wait (clock), and what for (in the skip reason). */
export interface NeedAsk {
  /** Seconds that must pass on the target's clock, when the need is `clock`. */
  readonly soakSeconds?: number;
  /** Words the skip reason names the ask by: `needs clock (1260 s must pass): …`. */
  readonly why?: string;
}
