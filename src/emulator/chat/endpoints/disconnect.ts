/**
 * §4.3 "Disconnect channel": `DELETE /{channel_id}/disconnect` ends the connection of one account (§3.2); 200, no body.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { invalidRequest } from '../errors.js';
import { emptyOk, gate, json, objectOf, type P } from '../route-kit.js';

export function disconnectEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  const va = ctx.variations;
  app.delete<P>('/:channelId/disconnect', async (request, reply) => {
    const channel = state.channels.get(request.params.channelId!);
    const accountId = gate(ctx, request, {
      channel,
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (f.isOn('chat-disconnect-unvalidated') && typeof body.account_id !== 'string') return '';
        return c.str(body, 'account_id', '', { required: true }) ?? '';
      },
    });
    if (accountId === '' && f.isOn('chat-disconnect-unvalidated')) return emptyOk(reply);
    const conn = state.connections.get(`${channel!.id}_${accountId}`);
    if (!state.accounts.has(accountId)) throw invalidRequest([{ field: 'account_id', message: 'is not an account of the chat interface' }]);
    if (!conn && f.isOn('chat-crash-on-disconnect-never-connected')) throw new Error('simulated crash: the connection of an account never connected is read');
    if ((!conn || !state.isConnected(conn)) && va.isOn('chat-repeat-refused')) throw invalidRequest([{ field: 'account_id', message: 'the channel is not connected in this account' }]);
    if (conn && !state.isConnected(conn) && f.isOn('chat-crash-on-second-disconnect')) throw new Error('simulated crash: a connection already disconnected is disconnected again');
    if (conn && !f.isOn('chat-disconnect-noop')) conn.connected = false;
    if (f.isOn('chat-disconnect-whole-channel')) for (const other of state.connections.values()) if (other.channel === channel) other.connected = false;
    if (f.isOn('chat-disconnect-answers-body')) return json(reply, { account_id: accountId, disconnected: true });
    if (f.isOn('chat-disconnect-answers-400')) throw invalidRequest([{ field: 'account_id', message: 'disconnect failed' }]);
    return emptyOk(reply);
  });
}
