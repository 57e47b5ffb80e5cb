/**
 * What the rules of §2.7 share: fixtures, case tables and the makers of rule families.
 */
import { type FieldCase, type FieldSpec, MESSAGE_TYPES, sweepCases } from '../kit.js';

export const fullMessage = () => ({
  type: 'text', text: 'with every optional field', sticker_id: 'sticker-1', callback_data: 'button-1', media_duration: 3,
  delivery_status: { status_code: 1 },
  shared_post: { url: 'https://social.example/post/1', type: 'post', preview_link: 'https://files.example/p.png', preview_permalink: 'https://files.example/pp.png', site_name: 'Social' },
});

export const M = ['payload', 'message'];

/** §2.7: the fields each message type requires. */
export const MESSAGE_FIELDS: Record<string, FieldSpec[]> = {
  text: [{ path: [...M], type: 'object' }, { path: [...M, 'type'], type: 'enum', values: MESSAGE_TYPES }, { path: [...M, 'text'], type: 'string' }],
  picture: [{ path: [...M, 'media'], type: 'string', unmarked: true }, { path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  file: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  video: [{ path: [...M, 'file_name'], type: 'string' }, { path: [...M, 'file_size'], type: 'int' }],
  location: [{ path: [...M, 'location'], type: 'object' }, { path: [...M, 'location', 'lon'], type: 'number' }, { path: [...M, 'location', 'lat'], type: 'number' }],
  contact: [{ path: [...M, 'contact'], type: 'object' }, { path: [...M, 'contact', 'name'], type: 'string' }, { path: [...M, 'contact', 'phone'], type: 'string' }],
};

export type MessageCase = FieldCase & { messageType: string };

export const MESSAGE_CASES: MessageCase[] = [
  ...Object.entries(MESSAGE_FIELDS).flatMap(([messageType, fields]) => sweepCases(fields).map((c) => ({ ...c, messageType }))),
  { path: [...M, 'type'], type: 'enum', breakage: 'wrong-type', wrongType: 'an unknown type', value: 'gif', messageType: 'text' },
];

export const TYPES = MESSAGE_TYPES;

export type MessageType = (typeof TYPES)[number];

export const OTHER_TYPES = ['file', 'video', 'picture', 'voice', 'audio', 'sticker', 'location', 'contact'] as const;

export type OtherType = (typeof OTHER_TYPES)[number];
