/**
 * Validation of chat request bodies (§2.4–§2.11, §4.3): every problem is collected with the path of the field, so a
 * 400 names all of them. Wrong JSON types are refused, never coerced. The object validators mirror the spec tables.
 */
import type { FaultSwitches } from '../faults.js';
import { VariationSwitches } from '../variations.js';
import type { FieldError } from './errors.js';

export const MESSAGE_TYPES = ['text', 'contact', 'file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** Types whose file fields are required (§2.7). */
export const FILE_TYPES: readonly string[] = ['file', 'video', 'picture'];
export const EXTERNAL_ID_MAX = 40;
export const MAX_FORWARDS = 1;
export const HISTORY_LIMIT_MAX = 50;
export const DELIVERY_CODES = [1, 2, -1] as const;
export const ERROR_CODES = [901, 902, 903, 904, 905] as const;

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, k: string) => Object.hasOwn(o, k) && o[k] !== undefined;

/** Collects field errors; each accessor returns the value when it is valid, undefined otherwise. */
export class Validator {
  readonly errors: FieldError[] = [];
  /** `variations`: the allowed variations of the emulator (../variations.ts); none when a validator only checks. */
  constructor(readonly faults: FaultSwitches, readonly variations: VariationSwitches = new VariationSwitches()) {}

  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  /** An optional field: under the fault that makes optional fields required, its absence is an error. */
  #absent(o: Obj, k: string, path: string, required: boolean, optionalCounts = false): boolean {
    if (has(o, k)) return false;
    if (required || (optionalCounts && this.faults.isOn('chat-optional-fields-required'))) this.add(join(path, k), 'is required');
    return true;
  }

  #wrongType(): boolean {
    return !this.faults.isOn('chat-accept-wrong-types');
  }

  str(o: Obj, k: string, path: string, opts: { required?: boolean; optional?: boolean; nonEmpty?: boolean } = {}): string | undefined {
    if (this.#absent(o, k, path, !!opts.required, !!opts.optional)) return undefined;
    const v = o[k];
    if (typeof v !== 'string') {
      // Under the wrong-types fault scalars are coerced; what cannot be coerced (an object, an array, null) is refused.
      const coerced = typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
      if (this.#wrongType() || coerced === undefined) this.add(join(path, k), 'must be a string');
      return coerced;
    }
    if (opts.nonEmpty && v.length === 0) this.add(join(path, k), 'must not be empty');
    return v;
  }

  int(o: Obj, k: string, path: string, opts: { required?: boolean; optional?: boolean; min?: number } = {}): number | undefined {
    if (this.#absent(o, k, path, !!opts.required, !!opts.optional)) return undefined;
    const v = o[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) {
      const n = typeof v === 'string' || typeof v === 'boolean' ? Number(v) : Number.NaN;
      if (this.#wrongType() || !Number.isSafeInteger(n)) this.add(join(path, k), 'must be an integer');
      return Number.isSafeInteger(n) ? n : undefined;
    }
    if (opts.min !== undefined && v < opts.min) this.add(join(path, k), `must be at least ${opts.min}`);
    return v;
  }

  num(o: Obj, k: string, path: string, opts: { required?: boolean } = {}): number | undefined {
    if (this.#absent(o, k, path, !!opts.required)) return undefined;
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      if (this.#wrongType()) this.add(join(path, k), 'must be a number');
      return undefined;
    }
    return v;
  }

  bool(o: Obj, k: string, path: string, opts: { required?: boolean } = {}): boolean | undefined {
    if (this.#absent(o, k, path, !!opts.required)) return undefined;
    const v = o[k];
    if (typeof v !== 'boolean') {
      if (this.#wrongType()) this.add(join(path, k), 'must be a boolean');
      return undefined;
    }
    return v;
  }

  obj(o: Obj, k: string, path: string, opts: { required?: boolean; optional?: boolean } = {}): Obj | undefined {
    if (this.#absent(o, k, path, !!opts.required, !!opts.optional)) return undefined;
    const v = o[k];
    if (!isObj(v)) {
      this.add(join(path, k), 'must be an object');
      return undefined;
    }
    return v;
  }

  oneOf<T extends string>(o: Obj, k: string, path: string, values: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const given = this.str(o, k, path, opts);
    if (given === undefined) return undefined;
    // The fault: enumerations compared without case (`V1`, `TEXT`, `REACT` taken for their lower-case values).
    const v = this.faults.isOn('chat-enumerations-any-case') && (values as readonly string[]).includes(given.toLowerCase()) ? given.toLowerCase() : given;
    if (!(values as readonly string[]).includes(v)) {
      if (!(k === 'type' && this.faults.isOn('chat-message-type-fields-unchecked'))) this.add(join(path, k), `must be one of ${values.join(', ')}`);
      return undefined;
    }
    return v as T;
  }
}

export const join = (path: string, k: string) => (path ? `${path}.${k}` : k);

export interface ParticipantIn {
  readonly id: string;
  readonly refId?: string;
  readonly name: string;
  readonly avatar?: string;
  readonly phone?: string;
  readonly email?: string;
  readonly profileLink?: string;
}

/** §2.5: `id` and `name` required; `ref_id`, `avatar`, `profile` (`phone`, `email`) and `profile_link` optional. */
export function participant(c: Validator, o: Obj, k: string, path: string, opts: { required: boolean }): ParticipantIn | undefined {
  const p = c.obj(o, k, path, { required: opts.required });
  if (!p) return undefined;
  const at = join(path, k);
  const id = c.str(p, 'id', at, { required: true });
  const name = c.str(p, 'name', at, { required: !c.faults.isOn('chat-participant-name-optional') });
  storedText(c, name);
  const refId = c.str(p, 'ref_id', at, { optional: true });
  const avatar = c.str(p, 'avatar', at, { optional: true });
  const profile = c.obj(p, 'profile', at, { optional: true });
  const phone = profile ? c.str(profile, 'phone', join(at, 'profile'), { optional: true }) : undefined;
  const email = profile ? c.str(profile, 'email', join(at, 'profile'), { optional: true }) : undefined;
  if (profile && phone === undefined && c.faults.isOn('chat-crash-on-profile-without-phone')) throw new Error('simulated crash: a missing phone is normalised');
  if (profile && phone === undefined && email === undefined && c.faults.isOn('chat-crash-on-empty-profile')) throw new Error('simulated crash: an empty profile makes no contact');
  if (profile && (phone === undefined) !== (email === undefined) && c.faults.isOn('chat-profile-needs-phone-and-email')) c.add(join(at, 'profile'), 'must hold both phone and email');
  const profileLink = c.str(p, 'profile_link', at, { optional: true });
  if (id === undefined) return undefined;
  return { id, name: name ?? '', ...(refId !== undefined && { refId }), ...(avatar !== undefined && { avatar }), ...(phone !== undefined && { phone }), ...(email !== undefined && { email }), ...(profileLink !== undefined && { profileLink }) };
}

/** §2.6: `external_id` a string, integer or boolean; at most 40 printable ASCII characters. Returns it as text. */
export function source(c: Validator, o: Obj, path: string): string | undefined {
  const s = c.obj(o, 'source', path);
  if (s && !has(s, 'external_id') && c.faults.isOn('chat-crash-on-source-without-external-id')) throw new Error('simulated crash: the pipeline of a source without external_id is looked up');
  if (!s || !has(s, 'external_id')) return undefined;
  const at = join(join(path, 'source'), 'external_id');
  const v = s.external_id;
  if (typeof v !== 'string' && typeof v !== 'boolean' && !(typeof v === 'number' && Number.isSafeInteger(v))) {
    c.add(at, 'must be a string, an integer or a boolean');
    return undefined;
  }
  if (typeof v !== 'string' && c.faults.isOn('chat-crash-on-non-string-external-id')) throw new Error('simulated crash: a non-string external_id is trimmed');
  const text = String(v);
  if (!c.faults.isOn('chat-external-id-unlimited')) {
    if (text.length > EXTERNAL_ID_MAX) c.add(at, `must be at most ${EXTERNAL_ID_MAX} characters`);
    if (!/^[\x20-\x7e]*$/.test(text)) c.add(at, 'must be printable ASCII characters or space');
  }
  return text;
}

export interface MessageIn {
  readonly type: string;
  readonly text: string;
  readonly media?: string;
  readonly fileName?: string;
  readonly fileSize?: number;
  readonly stickerId?: string;
  readonly location?: { lon: number; lat: number };
  readonly contact?: { name: string; phone: string };
  readonly mediaDuration?: number;
  readonly postId?: string;
  /** §2.8: the shared post as sent (its preview is decided when the message is stored). */
  readonly sharedPost?: SharedPostIn;
  /** §2.7: the delivery status the message comes with; absent, the message is sent (§3.3). */
  readonly deliveryStatus?: DeliveryStatusIn;
}

export interface SharedPostIn {
  readonly url: string;
  readonly type?: string;
  readonly siteName?: string;
  readonly previewLink?: string;
  readonly previewPermalink?: string;
}

/** §2.7 (and §2.8–§2.10 inside it). `edit`: file fields may be omitted. `comment`: `post` is what makes one. */
export function message(c: Validator, o: Obj, path: string, opts: { edit: boolean }): MessageIn | undefined {
  const m = c.obj(o, 'message', path, { required: true });
  if (!m) return undefined;
  const at = join(path, 'message');
  const unchecked = c.faults.isOn('chat-message-type-fields-unchecked');
  // The two type faults take a missing type, or one outside the list, as text instead of refusing the message.
  const asText = (!has(m, 'type') && c.faults.isOn('chat-type-missing-as-text'))
    || (typeof m.type === 'string' && !(MESSAGE_TYPES as readonly string[]).includes(m.type) && c.faults.isOn('chat-unknown-type-as-text'));
  const type = asText ? 'text' : c.oneOf(m, 'type', at, MESSAGE_TYPES, { required: true }) ?? (unchecked ? String(m.type ?? 'text') : undefined);
  if (type !== undefined && ['voice', 'audio', 'sticker'].includes(type) && c.faults.isOn('chat-media-types-refused')) c.add(join(at, 'type'), 'is not supported');
  const text = c.str(m, 'text', at, { required: (type === 'text' && !unchecked) || (type !== undefined && !opts.edit && c.faults.isOn('chat-text-member-required')) });
  storedText(c, text);
  if (type !== undefined && type !== 'text' && text === '' && c.faults.isOn('chat-empty-text-refused')) c.add(join(at, 'text'), 'must not be empty');
  const fileTypes = c.faults.isOn('chat-file-fields-file-type-only') ? ['file'] : FILE_TYPES;
  const fileRequired = !!type && fileTypes.includes(type) && !unchecked && !(opts.edit && !c.faults.isOn('chat-edit-requires-file-fields'));
  const media = c.str(m, 'media', at, { required: fileRequired || (type === 'sticker' && !opts.edit && c.faults.isOn('chat-sticker-media-required')) });
  const fileName = c.str(m, 'file_name', at, { required: fileRequired });
  const fileSize = c.int(m, 'file_size', at, { required: fileRequired, min: 0 });
  const stickerId = c.str(m, 'sticker_id', at, { optional: true });
  let location: MessageIn['location'];
  const loc = c.obj(m, 'location', at, { required: type === 'location' && !unchecked });
  if (loc) {
    const lon = c.num(loc, 'lon', join(at, 'location'), { required: true });
    const lat = c.num(loc, 'lat', join(at, 'location'), { required: !c.faults.isOn('chat-location-lat-unchecked') });
    if (lon !== undefined) location = { lon, lat: lat ?? 0 };
  }
  let contact: MessageIn['contact'];
  const con = c.obj(m, 'contact', at, { required: type === 'contact' && !unchecked });
  if (con) {
    const name = c.str(con, 'name', join(at, 'contact'), { required: true });
    const phone = c.str(con, 'phone', join(at, 'contact'), { required: !c.faults.isOn('chat-contact-phone-unchecked') });
    if (name !== undefined) contact = { name, phone: phone ?? '' };
  }
  c.str(m, 'callback_data', at, { optional: true });
  const ds = c.obj(m, 'delivery_status', at);
  if (ds && c.faults.isOn('chat-delivery-status-in-message-refused')) c.add(join(at, 'delivery_status'), 'is not taken in a message');
  const status = ds ? deliveryStatus(c, ds, join(at, 'delivery_status')) : undefined;
  const mediaDuration = c.int(m, 'media_duration', at, { optional: true, min: 0 });
  const shared = c.obj(m, 'shared_post', at);
  const sharedPostIn = shared ? sharedPost(c, shared, join(at, 'shared_post')) : undefined;
  const postObj = c.obj(m, 'post', at);
  const postId = postObj ? post(c, postObj, join(at, 'post')) : undefined;
  if (type === undefined) return undefined;
  return {
    type, text: text ?? '',
    ...(media !== undefined && { media }), ...(fileName !== undefined && { fileName }), ...(fileSize !== undefined && { fileSize }),
    ...(stickerId !== undefined && { stickerId }), ...(location && { location }), ...(contact && { contact }),
    ...(mediaDuration !== undefined && { mediaDuration }), ...(postId !== undefined && { postId }),
    ...(sharedPostIn && { sharedPost: sharedPostIn }), ...(status && { deliveryStatus: status }),
  };
}

/** §2.8: only `post` is a supported type; `url` is the link. */
function sharedPost(c: Validator, s: Obj, at: string): SharedPostIn {
  const urlOptional = c.faults.isOn('chat-shared-post-url-optional') || (c.variations?.isOn('chat-shared-post-url-lenient') && s.url === undefined);
  const url = urlOptional ? (typeof s.url === 'string' ? s.url : '') : c.str(s, 'url', at, { required: true });
  const previewLink = c.str(s, 'preview_link', at, { optional: true });
  const previewPermalink = c.str(s, 'preview_permalink', at, { optional: true });
  const siteName = c.str(s, 'site_name', at, { optional: true });
  if ((previewLink === undefined) !== (previewPermalink === undefined) && c.faults.isOn('chat-shared-post-preview-pair')) c.add(at, 'preview_link and preview_permalink go together');
  const type = c.str(s, 'type', at);
  if (c.faults.isOn('chat-shared-post-refused')) c.add(at, 'shared posts are not supported');
  const anyType = c.faults.isOn('chat-shared-post-any-type') || c.variations?.isOn('chat-shared-post-type-lenient');
  if (type !== undefined && type !== 'post' && !anyType) c.add(join(at, 'type'), 'must be "post"');
  return {
    url: url ?? '', ...(type !== undefined && { type }), ...(siteName !== undefined && { siteName }),
    ...(previewLink !== undefined && { previewLink }), ...(previewPermalink !== undefined && { previewPermalink }),
  };
}

/** §2.10: `id` and `url` required. Returns the post id. */
function post(c: Validator, p: Obj, at: string): string | undefined {
  const required = !c.faults.isOn('chat-post-unchecked');
  const id = c.str(p, 'id', at, { required });
  c.str(p, 'url', at, { required: required && !c.faults.isOn('chat-post-url-optional') });
  for (const k of ['preview_url', 'preview_permalink', 'username', 'caption']) c.str(p, k, at, { optional: true });
  if (has(p, 'caption') && !has(p, 'username') && c.faults.isOn('chat-post-caption-needs-username')) c.add(join(at, 'username'), 'is required with a caption');
  return id ?? (required ? undefined : 'post');
}

export interface DeliveryStatusIn {
  readonly code: number;
  readonly errorCode?: number;
  readonly error?: string;
}

/**
 * §2.9 and §3.3: status 1, 2 or -1; with -1 an `error_code` of 901–905, and with 905 an `error` text.
 * `delivery_status` is accepted as an alias of `status_code` (docs/field-notes.md: public clients send it).
 */
export function deliveryStatus(c: Validator, o: Obj, at: string, opts: { alias?: boolean } = {}): DeliveryStatusIn | undefined {
  const key = opts.alias && !has(o, 'status_code') && has(o, 'delivery_status') ? 'delivery_status' : 'status_code';
  const unvalidated = c.faults.isOn('chat-delivery-status-unvalidated');
  // Only for the `chat-status-null-as-sent` fault: a null status_code is read as "sent" (no value given) and taken.
  if (c.faults.isOn('chat-status-null-as-sent') && o[key] === null) return undefined;
  // Only for the `chat-status-empty-as-sent` fault: "" read as no value given, as a loose form reader does (R3-C6).
  if (c.faults.isOn('chat-status-empty-as-sent') && o[key] === '') return undefined;
  const code = c.int(o, key, at, { required: !unvalidated });
  if (code !== undefined && !unvalidated) {
    if (!(DELIVERY_CODES as readonly number[]).includes(code) || (code === -1 && c.faults.isOn('chat-delivery-status-positive-only'))) {
      c.add(join(at, key), `must be one of ${DELIVERY_CODES.join(', ')}`);
    }
  }
  const errorCode = c.int(o, 'error_code', at, { required: code === -1 && !unvalidated });
  if (errorCode !== undefined && !unvalidated && !(ERROR_CODES as readonly number[]).includes(errorCode)) c.add(join(at, 'error_code'), 'must be one of 901 to 905');
  // §4.3: error is "required only when status_code is -1"; §3.3 asks it with 905 (the variation and the crash fault read only that).
  const textFor905Only = c.variations?.isOn('chat-error-text-905-only') || c.faults.isOn('chat-error-text-missing-crash');
  const error = c.str(o, 'error', at, { required: code === -1 && (errorCode === 905 || !textFor905Only) && !unvalidated, nonEmpty: errorCode === 905 && !unvalidated });
  if (code === undefined) return undefined;
  return { code, ...(errorCode !== undefined && { errorCode }), ...(error !== undefined && { error }) };
}

export interface EmbeddedIn {
  readonly id?: string;
  readonly msgid?: string;
  /** The quoted message as given (what the account keeps when no id names it). */
  readonly given: EmbeddedContent;
}

/**
 * The fields of §2.11 besides the ids, as sent: a message's own fields, each optional, and when and by whom it was
 * sent; the sender's `id` is the integration side's, `ref_id` the chat interface's.
 */
export interface EmbeddedContent extends Partial<Pick<MessageIn, 'type' | 'text' | 'fileName' | 'fileSize' | 'mediaDuration' | 'location' | 'contact'>> {
  readonly timestamp?: number;
  readonly msecTimestamp?: number;
  readonly sender?: { id?: string; refId?: string; name?: string };
}

/** §2.11: with `id` or `msgid` the rest is resolved; without, type, timestamps and sender (and per-type content) are required. */
export function embedded(c: Validator, e: unknown, at: string): EmbeddedIn | undefined {
  if (!isObj(e)) {
    c.add(at, 'must be an object');
    return undefined;
  }
  const id = c.str(e, 'id', at);
  const msgid = c.str(e, 'msgid', at);
  const full = id === undefined && msgid === undefined && !c.faults.isOn('chat-embedded-unchecked');
  const type = c.oneOf(e, 'type', at, MESSAGE_TYPES, { required: full });
  const text = c.str(e, 'text', at, { required: full && type === 'text' });
  const fileName = c.str(e, 'file_name', at);
  const fileSize = c.int(e, 'file_size', at, { min: 0, required: full && type === 'file' && c.faults.isOn('chat-embedded-file-size-required') });
  const mediaDuration = c.int(e, 'media_duration', at, { min: 0 });
  let location: EmbeddedContent['location'];
  const loc = c.obj(e, 'location', at, { required: full && type === 'location' });
  if (loc) {
    const lon = c.num(loc, 'lon', join(at, 'location'), { required: true });
    const lat = c.num(loc, 'lat', join(at, 'location'), { required: true });
    if (lon !== undefined && lat !== undefined) location = { lon, lat };
  }
  let contact: EmbeddedContent['contact'];
  const con = c.obj(e, 'contact', at, { required: full && type === 'contact' && !c.faults.isOn('chat-embedded-contact-unchecked') });
  if (con) {
    const name = c.str(con, 'name', join(at, 'contact'), { required: true });
    const phone = c.str(con, 'phone', join(at, 'contact'), { required: true });
    if (name !== undefined && phone !== undefined) contact = { name, phone };
  }
  const timestamp = c.int(e, 'timestamp', at, { required: full, min: 0 });
  const msecTimestamp = c.int(e, 'msec_timestamp', at, { required: full && !c.faults.isOn('chat-embedded-msec-timestamp-optional'), min: 0 });
  let sender: EmbeddedContent['sender'];
  const s = c.obj(e, 'sender', at, { required: full });
  if (s) {
    const sid = c.str(s, 'id', join(at, 'sender'));
    const sref = c.str(s, 'ref_id', join(at, 'sender'));
    const byId = (sid !== undefined || (sref !== undefined && !c.faults.isOn('chat-embedded-ref-id-needs-name'))) && !c.faults.isOn('chat-embedded-sender-name-required');
    const name = c.str(s, 'name', join(at, 'sender'), { required: full && !byId });
    sender = { ...(sid !== undefined && { id: sid }), ...(sref !== undefined && { refId: sref }), ...(name !== undefined && { name }) };
  }
  const given: EmbeddedContent = {
    ...(type !== undefined && { type }), ...(text !== undefined && { text }), ...(fileName !== undefined && { fileName }),
    ...(fileSize !== undefined && { fileSize }), ...(mediaDuration !== undefined && { mediaDuration }), ...(location && { location }),
    ...(contact && { contact }), ...(timestamp !== undefined && { timestamp }), ...(msecTimestamp !== undefined && { msecTimestamp }),
    ...(sender && { sender }),
  };
  return { ...(id !== undefined && { id }), ...(msgid !== undefined && { msgid }), given };
}

/** The fault: a store that rejects the replacement character a lenient decoder left for bytes that were not UTF-8. */
function storedText(c: Validator, v: string | undefined): void {
  if (v?.includes('\uFFFD') && c.faults.isOn('chat-crash-on-replacement-stored')) throw new Error('simulated crash: the store rejects U+FFFD in a stored string');
}
