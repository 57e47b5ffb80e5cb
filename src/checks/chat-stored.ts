/**
 * Checks of what the account stores from chat messages, as the control API shows it (docs/control-api.md, GET
 * /_control/chat/messages and /_control/chat/unsorted): the profile in the unsorted lead's contact (§2.5), the shared
 * post's preview (§2.8), a quote resolved from the message it names (§2.11). The shapes are the control API's.
 */
import type { Check, Judge } from '../model/check.js';
import type { HttpResponse } from '../model/http.js';
import { fail, observed, pass } from '../model/outcome.js';
import { shown, valueAt } from './fields.js';
import type { StoredParticipant, StoredQuoteView, StoredSharedPostView } from '../protocol/answers.js';

/** An observation made by sending a request: its answer, and what was read back after it. */
export interface Answered {
  readonly res: HttpResponse;
}

/** Judges the answer of an observation that also read something back. */
export function onAnswer<S extends Answered>(check: Check): Judge<S> {
  return (o) => check(o.res);
}

/** The quote the account stored with the message just sent (undefined when it stored none, or the message was refused). */
export interface QuoteSeen extends Answered {
  readonly quote: StoredQuoteView | undefined;
}

/** The quoted message as the account stores it: what a quote naming it must carry. */
export interface QuotedMessage {
  readonly type?: string;
  readonly text?: string;
  readonly timestamp?: number;
  readonly msec_timestamp?: number;
  readonly sender?: StoredParticipant;
}

/**
 * §2.11: "with id or msgid the remaining fields are resolved automatically": the stored quote carries the quoted
 * message's type, text, timestamps and sender (its ids on both sides, as far as the quoted message has them; the
 * name may change with the participant, so it is not compared).
 */
export function quoteResolvedAs(quoted: QuotedMessage): Judge<QuoteSeen> {
  const name = 'resolved quote';
  const wanted: [string, unknown, (q: StoredQuoteView) => unknown][] = [
    ['type', quoted.type, (q) => q.type],
    ['text', quoted.text, (q) => q.text],
    ['timestamp', quoted.timestamp, (q) => q.timestamp],
    ['msec_timestamp', quoted.msec_timestamp, (q) => q.msec_timestamp],
    ['sender.id', quoted.sender?.id, (q) => q.sender?.id],
    ['sender.client_id', quoted.sender?.client_id, (q) => q.sender?.client_id],
  ];
  return ({ quote }) => {
    if (!quote) return fail(name, 'expected the message to be stored with the quote, observed no stored quote');
    const differ = wanted.filter(([, want, get]) => want !== undefined && get(quote) !== want);
    return differ.length === 0
      ? pass(name, `carries the quoted message's ${wanted.filter(([, want]) => want !== undefined).map(([k]) => k).join(', ')}`)
      : fail(name, `expected the quoted message's fields, observed ${differ.map(([k, want, get]) => `${k} ${shown(get(quote))} (quoted: ${shown(want)})`).join('; ')}`);
  };
}

/** The shared post the account stored with the message just sent. */
export interface SharedPostSeen extends Answered {
  readonly post: StoredSharedPostView | undefined;
}

/** The preview fields a shared post was sent with. */
export interface PreviewSent {
  readonly preview_link?: string;
  readonly preview_permalink?: string;
}

/**
 * §2.8: preview_permalink is kept as it is (not downloaded) and takes priority; preview_link alone is downloaded into
 * the account, so the account's preview is its own copy (`source: downloaded`), not the temporary link.
 */
export function previewStoredAs(sent: PreviewSent): Judge<SharedPostSeen> {
  const name = 'stored preview';
  return ({ post }) => {
    const preview = post?.preview ?? undefined;
    const seen = preview ? `source ${shown(preview.source)}, url ${shown(preview.url)}` : post ? 'no preview' : 'no stored shared_post';
    if (sent.preview_permalink !== undefined) {
      const kept = preview?.source === 'permalink' && preview.url === sent.preview_permalink;
      return kept
        ? pass(name, `the permalink, not downloaded${sent.preview_link !== undefined ? ', over the temporary link' : ''}`)
        : fail(name, `expected the preview_permalink kept as it is (source "permalink"${sent.preview_link !== undefined ? ', taking priority over preview_link' : ''}), observed ${seen}`);
    }
    if (sent.preview_link !== undefined) {
      const copied = preview?.source === 'downloaded' && typeof preview.url === 'string' && preview.url !== '' && preview.url !== sent.preview_link;
      return copied
        ? pass(name, 'a downloaded copy, not the temporary link')
        : fail(name, `expected a copy of the preview_link image downloaded into the account (source "downloaded", another url than the temporary link), observed ${seen}`);
    }
    return preview === undefined ? pass(name, 'none, as none was sent') : fail(name, `expected no preview (none was sent), observed ${seen}`);
  };
}

/**
 * The same observation for an `info` rule (§2.8's storage is not shown by any answer of the spec; C16 of the review):
 * what the account kept, recorded, never failed.
 */
export function previewStoredObserved(sent: PreviewSent): Judge<SharedPostSeen> {
  const judge = previewStoredAs(sent);
  return (seen) => {
    const f = judge(seen);
    return observed(f.check, f.verdict === 'passed' ? `as the wording says: ${f.detail}` : f.detail);
  };
}

/**
 * §3.3 "sent: none (the default; no numeric value given)": what the account keeps as a message's status before any
 * is sent. No answer of the spec shows a delivery status (only the control API does), so it is recorded, never
 * judged (R2-C1 of the review): "sent" as the wording says it, or the stored status_code.
 */
export const sentByDefault: Judge<unknown> = (truth) => {
  const name = 'sent';
  const ds = valueAt(truth, 'delivery_status');
  if (ds === null || ds === undefined) return observed(name, 'as the wording says: no delivery status (sent)');
  const code = valueAt(ds, 'status_code');
  if (code === 1 || code === 2 || code === -1) return observed(name, `status_code ${shown(code)} before any status was sent (the wording says sent, with no numeric value)`);
  return observed(name, `sent, spelt ${shown(ds)}`);
};

/** The unsorted lead of a conversation as stored (undefined when none was created within the window). */
export interface LeadSeen {
  readonly contact?: { readonly name?: string; readonly phone?: string; readonly email?: string };
}

const digits = (v: string) => v.replace(/\D/g, '');

/**
 * §2.5: when the unsorted lead is created, the profile's phone and email "are added to the contact data". A phone
 * written with other separators (`+7 900 …` as `79001234567`) is the same phone, and an email differing in case the
 * same address: both pass (the lenient reading).
 */
export function contactCarries(profile: { readonly phone: string; readonly email: string }): Judge<LeadSeen | undefined> {
  const name = 'contact data';
  return (lead) => {
    if (!lead) return fail(name, 'expected the first incoming message to create an unsorted lead, observed none');
    const c = lead.contact ?? {};
    const phone = typeof c.phone === 'string' && digits(c.phone) === digits(profile.phone);
    const email = typeof c.email === 'string' && c.email.toLowerCase() === profile.email.toLowerCase();
    return phone && email
      ? pass(name, `phone ${shown(c.phone)} and email ${shown(c.email)}`)
      : fail(name, `expected the contact to carry phone ${shown(profile.phone)} and email ${shown(profile.email)}, observed phone ${shown(c.phone)}, email ${shown(c.email)}`);
  };
}
