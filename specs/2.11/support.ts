/**
 * What the rules of §2.11 share: fixtures, case tables and the makers of rule families.
 */
import { type Conversation } from '../kit.js';

export const fullEmbedded = () => ({ type: 'text', text: 'quoted', timestamp: 1_700_000_000, msec_timestamp: 1_700_000_000_000, sender: { name: 'Someone' } });

export interface EmbeddedCase { readonly what: string; readonly message: Record<string, unknown>; readonly accepted: boolean }

export const EMBEDDED_CASES: EmbeddedCase[] = [
  { what: 'location with location', message: { ...fullEmbedded(), type: 'location', location: { lon: 1.5, lat: 2.5 } }, accepted: true },
  { what: 'location without location', message: { ...fullEmbedded(), type: 'location' }, accepted: false },
  { what: 'contact with contact', message: { ...fullEmbedded(), type: 'contact', contact: { name: 'A', phone: '+1' } }, accepted: true },
  { what: 'contact without contact', message: { ...fullEmbedded(), type: 'contact' }, accepted: false },
  { what: 'file with file_name, file_size, media_duration', message: { ...fullEmbedded(), type: 'file', file_name: 'a.pdf', file_size: 10, media_duration: 0 }, accepted: true },
  { what: 'file without them', message: { ...fullEmbedded(), type: 'file' }, accepted: true },
];

export interface SenderCase { readonly where: 'reply_to' | 'forwards'; readonly by: 'id' | 'ref_id' }

export const CASES: SenderCase[] = [
  { where: 'reply_to', by: 'id' }, { where: 'reply_to', by: 'ref_id' }, { where: 'forwards', by: 'id' }, { where: 'forwards', by: 'ref_id' },
];

/** A quote of the conversation's first message given in full, except that its sender is named by one id only. */
export function quote(c: Conversation, by: SenderCase['by']): Record<string, unknown> {
  const sender = by === 'id' ? { id: c.client.id } : { ref_id: c.clientRef };
  const ms = c.s.now().getTime() - 60_000;
  return { type: 'text', text: 'message 1', timestamp: Math.floor(ms / 1000), msec_timestamp: ms, sender };
}
