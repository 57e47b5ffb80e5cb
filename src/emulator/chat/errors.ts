/**
 * Chat interface errors (§4.3, §7): the live service's JSON envelope (docs/field-notes.md)
 * `{"status":0,"error_code":403,"error_type":"ORIGIN_INVALID_SIGNATURE","error_description":"invalid signature"}`,
 * with `errors` naming each invalid field on a 400. Never quotes a header or a secret.
 */
import type { FastifyReply } from 'fastify';
import type { FaultSwitches } from '../faults.js';

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export class ChatError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 405 | 413 | 422,
    readonly errorType: string,
    readonly description: string,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(description);
  }
}

export const invalidSignature = (why: string): ChatError => new ChatError(403, 'ORIGIN_INVALID_SIGNATURE', `invalid signature: ${why}`);
export const invalidRequest = (errors: readonly FieldError[]): ChatError =>
  new ChatError(400, 'BAD_REQUEST', errors.map((e) => `${e.field} ${e.message}`).join('; ') || 'invalid request', errors);
export const notFound = (errorType: string, description: string): ChatError => new ChatError(404, errorType, description);

export function chatErrorBody(e: ChatError): Record<string, unknown> {
  const body: Record<string, unknown> = { status: 0, error_code: e.status, error_type: e.errorType, error_description: e.description };
  if (e.errors.length > 0) body.errors = e.errors;
  return body;
}

export function sendChatError(reply: FastifyReply, e: ChatError, faults: FaultSwitches): FastifyReply {
  const status = e.status === 404 && faults.isOn('chat-not-found-as-200') ? 200 : e.status;
  if ((status === 400 || status === 404) && faults.isOn('chat-refusals-without-body')) return reply.code(status).send();
  const type = faults.isOn('chat-error-text-plain') ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
  return reply.code(status).header('content-type', type).send(JSON.stringify(chatErrorBody(e)));
}
