/**
 * §4.3 "Connect channel": `POST /{channel_id}/connect` connects the channel to an account under a scope_id (§2.4, §3.2).
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ChatState } from '../state.js';
import { randomUUID } from 'node:crypto';
import { invalidRequest } from '../errors.js';
import { overlapped } from '../overlap.js';
import { scopeIdOf } from '../state.js';
import { gate, json, objectOf, type P } from '../route-kit.js';

export function connectEndpoint(app: FastifyInstance, ctx: EmulatorContext, state: ChatState): void {
  const f = ctx.faults;
  app.post<P>('/:channelId/connect', async (request, reply) => {
    const channel = state.channels.get(request.params.channelId!);
    const v = gate(ctx, request, {
      channel,
      validate: (c, raw) => {
        const body = objectOf(c, raw);
        if (f.isOn('chat-connect-unvalidated')) return { accountId: String(body.account_id ?? ''), title: typeof body.title === 'string' ? body.title : undefined, hook: body.hook_api_version === 'v2' ? 'v2' as const : 'v1' as const, tw: body.is_time_window_disabled === true };
        const accountId = c.str(body, 'account_id', '', { required: true, nonEmpty: true });
        if (body.hook_api_version === undefined && f.isOn('chat-crash-on-connect-without-hook-version')) throw new Error('simulated crash: the hook address of an undefined version is read');
        const hook = c.oneOf(body, 'hook_api_version', '', ['v1', 'v2'] as const);
        const title = c.str(body, 'title', '', { required: f.isOn('chat-connect-requires-title') });
        const tw = c.bool(body, 'is_time_window_disabled', '');
        const anyAccount = f.isOn('chat-connect-any-account');
        if (accountId !== undefined && accountId !== '' && !state.accounts.has(accountId) && !anyAccount) c.add('account_id', 'is not an account of the chat interface');
        // §2.4: the hook address for the chosen version must be set in the channel settings.
        if (hook !== undefined && channel?.hookVersions && !channel.hookVersions.includes(hook)) c.add('hook_api_version', `the channel has no hook address for ${hook}`);
        return { accountId: accountId ?? '', title, hook, tw: tw ?? f.isOn('chat-time-window-default-true') };
      },
    });
    if (f.isOn('chat-connect-any-account') && !state.accounts.has(v.accountId)) state.accounts.set(v.accountId, { accountId: -1, amojoId: v.accountId, userIds: [] });
    const account = state.accounts.get(v.accountId);
    if (!account) throw invalidRequest([{ field: 'account_id', message: 'is not an account of the chat interface' }]);
    const title = f.isOn('chat-connect-title-ignored') ? undefined : v.title ?? (f.isOn('chat-title-default-channel-id') ? channel!.id : f.isOn('chat-title-default-empty') ? '' : undefined);
    const opts = { ...(title !== undefined && { title }), ...(v.hook !== undefined && { hookApiVersion: v.hook }), isTimeWindowDisabled: v.tw };
    const usual = scopeIdOf(channel!, account);
    const before = state.connections.get(usual);
    if (before && !state.isConnected(before) && f.isOn('chat-reconnect-refused')) throw invalidRequest([{ field: 'account_id', message: 'the channel was disconnected in this account' }]);
    // The race fault: a connect that overlapped another of the same account found no connection and made its own.
    const raced = f.isOn('chat-connect-race') && await overlapped(ctx, `connect ${usual}`);
    const conn = state.connect(channel!, account, opts, raced ? `${usual}-${randomUUID().slice(0, 8)}` : usual);
    const body: Record<string, unknown> = { account_id: account.amojoId, scope_id: conn.scopeId, title: conn.title, hook_api_version: conn.hookApiVersion, is_time_window_disabled: conn.isTimeWindowDisabled };
    if (f.isOn('chat-connect-no-scope-id')) delete body.scope_id;
    if (f.isOn('chat-connect-answers-defaults')) Object.assign(body, { hook_api_version: 'v1', is_time_window_disabled: false });
    if (ctx.variations.isOn('chat-connect-echo-minimal')) for (const k of ['title', 'hook_api_version', 'is_time_window_disabled']) delete body[k];
    return json(reply, body);
  });
}
