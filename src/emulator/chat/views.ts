/**
 * How chat answers show people and files (create chat, history, the contact of an unsorted lead), with the variations
 * that spell them otherwise: a re-hosted avatar or file, "empty" as null or left out, a phone normalised.
 */
import { createHash } from 'node:crypto';
import type { EmulatorContext } from '../context.js';
import type { VariationSwitches } from '../variations.js';
import type { Person } from './state.js';

/** How answers show people and files: the variations that re-host files or spell "empty" otherwise, and the base of the emulator's file storage. */
export interface Look {
  readonly variations?: VariationSwitches;
  readonly base: string;
}

export const lookOf = (ctx: EmulatorContext): Look => ({ variations: ctx.variations, base: ctx.baseUrl() });

/** A short stable name for a file copy on the emulator's own storage (it does not serve them: there is no outside network). */
export const copyName = (url: string): string => createHash('sha256').update(url).digest('hex').slice(0, 16);

/** The phone as answers show it: under `chat-phone-normalised`, digits only. */
export function phoneShown(phone: string, variations?: VariationSwitches): string {
  return variations?.isOn('chat-phone-normalised') ? phone.replace(/\D/g, '') : phone;
}

/** §2.5 avatar "empty if not given": "" by default; null or left out under the variations; a given one re-hosted under `chat-avatar-rehosted`. */
function avatarMember(avatar: string, look?: Look): Record<string, unknown> {
  const v = look?.variations;
  if (avatar === '') return v?.isOn('chat-avatar-omitted') ? {} : { avatar: v?.isOn('chat-avatar-null') ? null : '' };
  return { avatar: v?.isOn('chat-avatar-rehosted') ? `${look!.base}/files/avatars/${copyName(avatar)}` : avatar };
}

export function personView(p: Person, mode: 'as-is' | 'drop-client-id' | 'fake-client-id' = 'as-is', look?: Look): Record<string, unknown> {
  const clientId = mode === 'drop-client-id' ? undefined : mode === 'fake-client-id' ? (p.clientId ?? p.id) : p.clientId;
  const nulls = look?.variations?.isOn('chat-profile-null') ?? false;
  return {
    id: p.id, ...(clientId !== undefined && { client_id: clientId }), name: p.name, ...avatarMember(p.avatar, look),
    ...(p.phone !== undefined ? { phone: phoneShown(p.phone, look?.variations) } : nulls && { phone: null }),
    ...(p.email !== undefined ? { email: p.email } : nulls && { email: null }),
  };
}
