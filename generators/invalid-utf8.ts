/**
 * JSON bodies with bytes that are not UTF-8 inside a string: RFC 8259 §8.1 says JSON text exchanged between systems
 * MUST be UTF-8, so a server may refuse such a body (4xx) or decode it leniently (replacement characters); it must not
 * break (5xx, reset). The bytes go into an extra member, so the rest of the body stays the valid request it was.
 */

/** A lone continuation byte, a byte never valid in UTF-8, an overlong encoding and a cut-off sequence. */
export const INVALID_UTF8 = Buffer.from([0x80, 0xff, 0xc0, 0xaf, 0xe2, 0x82]);

const MARK = '\u0000invalid-utf8\u0000';

/** `body` serialized with one more member whose string value holds the invalid bytes. */
export function withInvalidUtf8(body: unknown): Buffer {
  const base = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const text = JSON.stringify({ ...base, x_note: MARK });
  const [before, after] = text.split(JSON.stringify(MARK).slice(1, -1)) as [string, string];
  return Buffer.concat([Buffer.from(before, 'utf8'), INVALID_UTF8, Buffer.from(after, 'utf8')]);
}

/**
 * `body` serialized with the invalid bytes appended inside the string value of `member`, one the server reads (a code
 * it looks up, a client_id): a store that takes only UTF-8 breaks there, where an extra member is never read (R2-A10).
 */
export function withInvalidUtf8In(body: Record<string, unknown>, member: string): Buffer {
  const text = JSON.stringify({ ...body, [member]: `${typeof body[member] === 'string' ? body[member] : ''}${MARK}` });
  const [before, after] = text.split(JSON.stringify(MARK).slice(1, -1)) as [string, string];
  return Buffer.concat([Buffer.from(before, 'utf8'), INVALID_UTF8, Buffer.from(after, 'utf8')]);
}
