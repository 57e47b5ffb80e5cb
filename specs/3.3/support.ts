/**
 * What the rules of §3.3 share: fixtures, case tables and the makers of rule families.
 */
import { ChatSession, type ParticipantBody } from '../kit.js';

export const DS = (f: string) => `4.3/Update delivery status/${f}`;

/** A message of the rule's own to set delivery statuses on. */
export interface Marked {
  readonly s: ChatSession;
  readonly msgid: string;
}

/** A message of its own, named by its chat-interface id (new_message.msgid): the path's {msgid} (C25 of the review). */
export async function messageToMark(s: ChatSession): Promise<Marked> {
  const conv = s.conversationId();
  return { s, msgid: (await s.mustSend(s.payload(conv, s.client()))).id };
}

/** Three messages in one conversation, from one client. */
export interface Conversation {
  readonly s: ChatSession;
  readonly conv: string;
  readonly client: ParticipantBody;
}

export interface StatusCase {
  readonly what: string;
  readonly body: Record<string, unknown>;
}

export const ACCEPTED: StatusCase[] = [
  { what: 'delivered (1)', body: { status_code: 1 } },
  { what: 'read (2)', body: { status_code: 2 } },
  ...[901, 902, 903, 904, 905].map((code) => ({ what: `error (-1) with ${code}`, body: { status_code: -1, error_code: code, error: `reason ${code}` } })),
];

/**
 * Wrong JSON types: refused with 400 passes, coerced and accepted is non_strict (wrong-type, C27 of the review). Only a
 * lossless spelling of a code counts ("1"); `""` names no code of "1, 2 or -1" and stands with the refused (R3-C6).
 */
export const WRONG_TYPE: StatusCase[] = [
  { what: 'status_code "1" (a string)', body: { status_code: '1' } },
];

export const REFUSED: StatusCase[] = [
  { what: 'no status_code', body: {} },
  { what: 'status_code null', body: { status_code: null } },
  { what: 'status_code "" (a string naming no code)', body: { status_code: '' } },
  { what: 'status_code 0', body: { status_code: 0 } },
  { what: 'status_code 3', body: { status_code: 3 } },
  { what: 'status_code -2', body: { status_code: -2 } },
  { what: '-1 without error_code', body: { status_code: -1, error: 'x' } },
  { what: '-1 with error_code 900', body: { status_code: -1, error_code: 900, error: 'x' } },
  { what: '-1 with error_code 906', body: { status_code: -1, error_code: 906, error: 'x' } },
  { what: '-1 with 905 and no error text', body: { status_code: -1, error_code: 905 } },
];
