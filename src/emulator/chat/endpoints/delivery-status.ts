/**
 * §4.3 "Update delivery status": `POST /{scope_id}/{msgid}/delivery_status` sets a message's status (§2.9, §3.3); 200, no body.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import type { VariationSwitches } from '../../variations.js';
import { invalidRequest, notFound } from '../errors.js';
import { deliveryStatus, type Obj } from '../validate.js';
import { connected, emptyOk, gate, objectOf, type P } from '../route-kit.js';

export function deliveryStatusEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  app.post<P>('/:scopeId/:msgid/delivery_status', async (request, reply) => {
    const scopeId = request.params.scopeId!;
    const key = request.params.msgid!;
    const status = gate(ctx, request, {
      channel: state.channelOfScope(scopeId),
      // The two faults: a path naming the message by one of its ids is taken as the account's own and not verified.
      skipSignature: () => (f.isOn('chat-status-unsigned-by-chat-interface-id') && namesBy(state, scopeId, key, 'chat'))
        || (f.isOn('chat-status-unsigned-by-msgid') && namesBy(state, scopeId, key, 'integration')),
      validate: (c, raw) => deliveryStatus(c, coercedStatus(ctx.variations, objectOf(c, raw)), '', { alias: true }),
    });
    const conn = connected(state, scopeId);
    // The isolation fault: a chat-interface id is taken as unique across scopes, so it is looked up in any of them.
    const found = state.message(conn, key)
      ?? (f.isOn('chat-status-by-id-any-scope') ? state.messageInAnyScope(key)?.m : undefined);
    const m = (f.isOn('chat-delivery-status-msgid-only') && found?.clientId !== key) || ((ctx.addresses.shape === 'deployed' || ctx.variations.isOn('chat-status-by-chat-interface-id-only')) && found?.id !== key) ? undefined : found;
    if (!m && f.isOn('chat-crash-on-unknown-status-msgid')) throw new Error('simulated crash: the status of a message that is not there is written');
    if (!m) throw notFound('MESSAGE_NOT_FOUND', 'message does not exist');
    if (status && m.status?.code === status.code && ctx.variations.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'status_code', message: `the message is already ${status.code}` }]);
    if (status && m.status?.code === status.code && f.isOn('chat-crash-on-repeated-delivery-status')) throw new Error('simulated crash: duplicate key on the message\'s status');
    if (status?.code === -1 && status.error === undefined && f.isOn('chat-error-text-missing-crash')) throw new Error('simulated crash: the error text of a -1 status is stored unchecked');
    if (status && m.status && ctx.variations.isOn('chat-delivery-status-forward-only') && statusRank(status.code) < statusRank(m.status.code)) {
      throw invalidRequest([{ field: 'status_code', message: `the message is already ${m.status.code}; a delivery status does not go back` }]);
    }
    const applied = status && f.isOn('chat-delivery-status-read-as-delivered') && status.code === 2 ? { code: 1 } : status;
    const stored = applied && f.isOn('chat-delivery-status-error-dropped') ? { code: applied.code } : applied;
    const onto = f.isOn('chat-delivery-status-on-latest') ? m.chat.messages.at(-1) ?? m : m;
    if (stored && !(onto.status && f.isOn('chat-delivery-status-first-only'))) onto.status = stored;
    return emptyOk(reply);
  });
}

/** Whether `key` is the chat-interface id (`chat`) or the integration-side msgid (`integration`) of a message of the scope. */
function namesBy(state: ChatState, scopeId: string, key: string, side: 'chat' | 'integration'): boolean {
  const conn = state.connections.get(scopeId);
  const m = conn === undefined ? undefined : state.message(conn, key);
  return m !== undefined && (side === 'chat' ? m.id : m.clientId) === key;
}

/** §3.3 order of the delivery statuses for `chat-delivery-status-forward-only`: delivered, read, and error last. */
function statusRank(code: number): number {
  return code === -1 ? 3 : code;
}

/** Under `chat-status-code-coerced`, a status_code given as a string of digits is read as the number. */
function coercedStatus(variations: VariationSwitches, o: Obj): Obj {
  const v = o.status_code;
  return variations.isOn('chat-status-code-coerced') && typeof v === 'string' && /^-?\d+$/.test(v) ? { ...o, status_code: Number(v) } : o;
}
