/**
 * What the account keeps of a message beyond its text (§2.8, §2.11), and how the control API shows it
 * (docs/control-api.md, GET /_control/chat/messages):
 *
 * - a shared post's preview: the temporary `preview_link` is downloaded into the account, the permanent
 *   `preview_permalink` is kept as it is and wins when both are given. The emulator has no outside network, so it
 *   does not fetch the image: it names its copy by an address of its own file storage (`/files/previews/<id>`), which
 *   it does not serve;
 * - a quoted (`reply_to`) or forwarded message named by `id` or `msgid`: the quoted message's fields are resolved from
 *   the stored message; one given in full is kept as given.
 */
import { randomUUID } from 'node:crypto';
import type { FaultSwitches } from '../faults.js';
import type { VariationSwitches } from '../variations.js';
import type { EmbeddedContent, EmbeddedIn, MessageIn, SharedPostIn } from './validate.js';

export interface StoredPreview {
  /** `downloaded`: the account's copy of preview_link; `permalink`: preview_permalink, kept, not downloaded; `link`: only under a fault. */
  readonly source: 'downloaded' | 'permalink' | 'link';
  readonly url: string;
}

export interface StoredSharedPost {
  readonly url: string;
  readonly type?: string;
  readonly siteName?: string;
  readonly preview: StoredPreview | null;
}

/** A participant as the account knows it: `id` on the chat-interface side, `clientId` on the integration side. */
export interface StoredSender {
  readonly id?: string;
  readonly clientId?: string;
  readonly name?: string;
}

/** The fields of §2.11 as the account keeps them: the sender in the stored form. */
export interface StoredQuote extends Omit<EmbeddedContent, 'sender'> {
  /** The quoted message's chat-interface id and integration-side id, as far as they are known. */
  readonly id?: string;
  readonly msgid?: string;
  readonly sender?: StoredSender;
}

/** What a quote resolves from: a stored message (./state.ts), by the fields it is read for. */
export interface QuotableMessage {
  readonly id: string;
  readonly clientId: string;
  readonly timestamp: number;
  readonly msecTimestamp: number;
  readonly sender: { readonly id: string; readonly clientId?: string; readonly name: string };
  readonly content: MessageIn;
}

/** §2.8: the permalink when given (unless the fault prefers the link), else a downloaded copy of preview_link, else none. */
export function storedSharedPost(sp: SharedPostIn, filesBase: string, faults: FaultSwitches, variations?: VariationSwitches): StoredSharedPost {
  const linkWins = sp.previewLink !== undefined && (faults.isOn('chat-preview-link-preferred') || !!variations?.isOn('chat-preview-always-downloaded'));
  let preview: StoredPreview | null = null;
  if (sp.previewPermalink !== undefined && sp.previewLink === undefined && variations?.isOn('chat-preview-always-downloaded')) preview = { source: 'downloaded', url: `${filesBase}/files/previews/${randomUUID()}` };
  else if (sp.previewPermalink !== undefined && !linkWins) preview = { source: 'permalink', url: sp.previewPermalink };
  else if (sp.previewLink !== undefined) {
    preview = faults.isOn('chat-preview-link-kept') ? { source: 'link', url: sp.previewLink } : { source: 'downloaded', url: `${filesBase}/files/previews/${randomUUID()}` };
  }
  return { url: sp.url, ...(sp.type !== undefined && { type: sp.type }), ...(sp.siteName !== undefined && { siteName: sp.siteName }), preview };
}

/**
 * §2.11: a quote naming a stored message by id or msgid takes that message's fields ("resolved automatically");
 * otherwise it is kept as given. `quoted` is the message the route found for the ids (it already refused a quote
 * naming none).
 */
export function storedQuote(e: EmbeddedIn, quoted: QuotableMessage | undefined, faults: FaultSwitches): StoredQuote {
  const unresolved = faults.isOn('chat-quote-unresolved') || (faults.isOn('chat-quote-msgid-unresolved') && e.id === undefined);
  if (quoted && !unresolved) {
    const c = quoted.content;
    return {
      id: quoted.id, msgid: quoted.clientId, type: c.type, text: c.text,
      ...(c.fileName !== undefined && { fileName: c.fileName }), ...(c.fileSize !== undefined && { fileSize: c.fileSize }),
      ...(c.mediaDuration !== undefined && { mediaDuration: c.mediaDuration }), ...(c.location && { location: c.location }),
      ...(c.contact && { contact: c.contact }), timestamp: quoted.timestamp, msecTimestamp: quoted.msecTimestamp,
      sender: { id: quoted.sender.id, ...(quoted.sender.clientId !== undefined && { clientId: quoted.sender.clientId }), name: quoted.sender.name },
    };
  }
  const { sender, ...given } = e.given;
  return {
    ...(e.id !== undefined && { id: e.id }), ...(e.msgid !== undefined && { msgid: e.msgid }), ...given,
    ...(sender && { sender: { ...(sender.refId !== undefined && { id: sender.refId }), ...(sender.id !== undefined && { clientId: sender.id }), ...(sender.name !== undefined && { name: sender.name }) } }),
  };
}

// ---- the control API's view (snake_case, absent fields left out)

export function sharedPostView(sp: StoredSharedPost): Record<string, unknown> {
  return { url: sp.url, ...(sp.type !== undefined && { type: sp.type }), ...(sp.siteName !== undefined && { site_name: sp.siteName }), preview: sp.preview };
}

export function senderView(p: StoredSender): Record<string, unknown> {
  return { ...(p.id !== undefined && { id: p.id }), ...(p.clientId !== undefined && { client_id: p.clientId }), ...(p.name !== undefined && { name: p.name }) };
}

export function quoteView(q: StoredQuote): Record<string, unknown> {
  return {
    ...(q.id !== undefined && { id: q.id }), ...(q.msgid !== undefined && { msgid: q.msgid }), ...(q.type !== undefined && { type: q.type }),
    ...(q.text !== undefined && { text: q.text }), ...(q.fileName !== undefined && { file_name: q.fileName }),
    ...(q.fileSize !== undefined && { file_size: q.fileSize }), ...(q.mediaDuration !== undefined && { media_duration: q.mediaDuration }),
    ...(q.location && { location: q.location }), ...(q.contact && { contact: q.contact }),
    ...(q.timestamp !== undefined && { timestamp: q.timestamp }), ...(q.msecTimestamp !== undefined && { msec_timestamp: q.msecTimestamp }),
    ...(q.sender && { sender: senderView(q.sender) }),
  };
}
