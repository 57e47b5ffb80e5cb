/**
 * What the service answers and what its control API shows, as the kit reads them: one declaration per shape, which
 * the steps return, the checks judge and the generators sample. Every member a live target may leave out is optional;
 * what a step makes of several answers (an observation) is declared beside the check that judges it.
 */

/** The token pair of a 200 token response (§4.1), when the body has one. */
export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly [field: string]: unknown;
}

/** A custom field value of a record (§4.2). */
export interface CfValueView { readonly field_id?: unknown; readonly field_type?: unknown; readonly values?: readonly { readonly value?: unknown; readonly enum_id?: unknown }[] }

/** A record as a list returns it (§4.2); every field may be missing on a live target. */
export interface RecordView {
  readonly id: number;
  readonly [field: string]: unknown;
  readonly custom_fields_values?: readonly CfValueView[] | null;
}

/** History element, as §4.3 "Get chat history" lists it; extra fields are allowed. */
export interface HistoryItem {
  timestamp?: number;
  msec_timestamp?: number;
  sender?: { id?: string; client_id?: string; name?: string; [k: string]: unknown };
  receiver?: { id?: string; client_id?: string; name?: string; [k: string]: unknown };
  message?: { id?: string; client_id?: string; type?: string; text?: string; media_group_id?: string; [k: string]: unknown };
}

/** A participant as the account keeps it: `id` on the chat-interface side, `client_id` on the integration side. */
export interface StoredParticipant {
  readonly id?: string;
  readonly client_id?: string;
  readonly name?: string;
}

/** A quoted or forwarded message as stored (§2.11; control API GET /_control/chat/messages). */
export interface StoredQuoteView {
  readonly id?: string;
  readonly msgid?: string;
  readonly type?: string;
  readonly text?: string;
  readonly timestamp?: number;
  readonly msec_timestamp?: number;
  readonly sender?: StoredParticipant;
}

export interface StoredPreviewView {
  readonly source?: string;
  readonly url?: string;
}

/** A shared post as stored (§2.8): the preview the account kept, or null. */
export interface StoredSharedPostView {
  readonly url?: string;
  readonly preview?: StoredPreviewView | null;
}

/** A conversation of one chat as the control API shows it (GET /_control/chat/conversations). */
export interface ConversationView {
  readonly kind: string;
  readonly post_id?: string;
  readonly message_count: number;
}
