/**
 * §3.2 Channel connection: connect → send → disconnect → connect again; hooks stop after a disconnect (§6); a
 * disconnect of the integration disconnects the channel (§6 last line); one account's scope never reaches another's
 * chats. Rules that disconnect use a channel of their own (registered through the control API), so that rules
 * sharing the configured channel are not disturbed.
 */
import {
  type ChatSession, chatSession, ControlError, countByClientId, defineSpec, fail, type Finding, type HttpResponse, otherAccountId, ownChannel, parseJson, pass, Precondition, rule, SkipRule, status,
} from './kit.js';

const refusedAfterDisconnect = (res: HttpResponse, what: string): Finding =>
  res.status >= 400 && res.status < 500
    ? pass(what, `refused with ${res.status}`)
    : fail(what, `expected a refusal (4xx) once the channel is disconnected, observed ${res.status}`);

async function accountMessage(s: ChatSession, conv: string): Promise<boolean> {
  const r = await s.t.control.call<{ hook_sent: boolean }>('POST', '/chat/account-message', { scope_id: await s.scope(), conversation_id: conv, text: 'from the account' });
  return r.hook_sent;
}

async function hookCount(s: ChatSession, scopeId: string): Promise<number> {
  return (await s.t.control.call<{ hooks: unknown[] }>('GET', `/chat/hooks?scope_id=${encodeURIComponent(scopeId)}`)).hooks.length;
}

export default defineSpec({
  section: '3.2',
  title: 'Channel connection: states and transitions',
  level: 'must',
  rules: [
    rule(
      { id: 'chat.connection.lifecycle', requires: ['write', 'control'], title: 'connect → send → disconnect → sending is refused → connect again → sending works',
        reading: '§3.2: connected lets messages be sent; disconnect leads to not connected. The spec gives no code for a message to a disconnected scope: any 4xx passes. Uses its own channel.',
        covers: ['3.2/not connected', '3.2/connected', '4.3/Disconnect channel', '4.3/Connect channel'] },
      async (t) => {
        const s = await ownChannel(t);
        const scope = await s.scope();
        const conv = s.conversationId();
        const client = s.client();
        const findings: Finding[] = [];
        findings.push(...t.check(await s.sendMessage(s.payload(conv, client)), [status(200)]).map((f) => ({ ...f, check: `connected, send: ${f.check}` })));
        findings.push(...t.check(await s.disconnect(), [status(200)]).map((f) => ({ ...f, check: `disconnect: ${f.check}` })));
        findings.push(refusedAfterDisconnect(await s.sendMessage(s.payload(conv, client)), 'send after disconnect'));
        s.forgetScope();
        const again = await s.scope();
        findings.push(again === scope ? pass('same scope_id', 'reconnecting gives the same scope_id') : pass('new scope_id', 'reconnecting gives a new scope_id'));
        findings.push(...t.check(await s.sendMessage(s.payload(conv, client)), [status(200)]).map((f) => ({ ...f, check: `reconnected, send: ${f.check}` })));
        return t.outcome(findings);
      },
    ),
    rule(
      { id: 'chat.connection.hooks-stop', requires: ['write', 'control'], title: 'Outgoing-message hooks arrive while connected and stop after disconnect',
        reading: '§3.2 and §6: "Hooks stop". A manager writing from the account is simulated through the control API, which also reads the hooks sent. Uses its own channel.',
        covers: ['3.2/connected', '4.3/Disconnect channel'] },
      async (t) => {
        const s = await ownChannel(t);
        const scope = await s.scope();
        const conv = s.conversationId();
        await s.mustSend(s.payload(conv, s.client()));
        await accountMessage(s, conv);
        const before = await hookCount(s, scope);
        const off = await s.disconnect();
        if (off.status !== 200) throw new Precondition(`disconnect answered ${off.status}`);
        await accountMessage(s, conv);
        const after = await hookCount(s, scope);
        return t.outcome([
          before === 1 ? pass('hook while connected', '1 hook') : fail('hook while connected', `expected 1 hook for a message from the account, observed ${before}`),
          after === before ? pass('no hook after disconnect', `${after} hook(s)`) : fail('no hook after disconnect', `expected no new hook after disconnect, observed ${after - before}`),
        ]);
      },
    ),
    rule(
      { id: 'chat.connection.integration-disconnect', requires: ['write', 'control'], exclusive: true,
        title: 'Disconnecting the integration in an account disconnects its chat channel there',
        reading: '§3.2 last row and §6: automatic. Done in a second account through the control API (POST /_control/disconnect), which uninstalls the integration there: exclusive.',
        covers: ['3.2/connected'] },
      async (t) => {
        const base = await ownChannel(t);
        const other = await otherAccountId(t, base.channel.accountId);
        const info = await t.control.call<{ accounts: { id: number; amojo_id: string }[] }>('GET', '/chat');
        const numeric = info.accounts.find((a) => a.amojo_id === other)?.id;
        const s = await chatSession(t, { ...base.channel, accountId: other });
        const conv = s.conversationId();
        const client = s.client();
        await s.mustSend(s.payload(conv, client));
        try {
          await t.control.call('POST', '/disconnect', { account_id: numeric });
        } catch (err) {
          if (err instanceof ControlError && (err.status === 404 || err.status === 405)) throw new SkipRule('the control API has no integration disconnect (POST /_control/disconnect)');
          throw err;
        }
        const res = await s.sendMessage(s.payload(conv, client));
        const back = await s.connect({}, {}, other);
        return t.outcome([refusedAfterDisconnect(res, 'send after the integration disconnect'), ...t.check(back, [status(200)]).map((f) => ({ ...f, check: `connect again: ${f.check}` }))]);
      },
    ),
    rule(
      { id: 'chat.connection.isolation', requires: ['write', 'control'], title: 'One account\'s scope never reads or writes another account\'s chats',
        reading: 'scope_id identifies the connection for one account (§2.4). The same conversation_id in two accounts is two chats; history, delivery status and reactions of one scope do not reach the other. The second account comes from GET /_control/chat.',
        covers: ['2.4/scope_id', '2.4/account_id'] },
      async (t) => {
        const a = await chatSession(t);
        const other = await otherAccountId(t, a.channel.accountId);
        const b = await chatSession(t, { ...a.channel, accountId: other });
        const scopeA = await a.scope();
        const scopeB = await b.scope();
        if (scopeA === scopeB) return t.outcome([fail('distinct scopes', `two accounts got the same scope_id ${scopeA}`)]);
        const conv = a.conversationId();
        const client = a.client();
        const inA = await a.mustSend(a.payload(conv, client));
        const findings: Finding[] = [];
        findings.push(...t.check(await b.history(conv), [status(204)]).map((f) => ({ ...f, check: `B reads A's conversation: ${f.check}` })));
        findings.push(...t.check(await b.deliveryStatus(inA.msgid, { status_code: 2 }), [status(404)]).map((f) => ({ ...f, check: `B sets A's delivery status: ${f.check}` })));
        findings.push(...t.check(await b.react({ conversation_id: conv, msgid: inA.msgid, user: { id: client.id }, type: 'react', emoji: 'x' }), [status(404)]).map((f) => ({ ...f, check: `B reacts in A: ${f.check}` })));
        const createdB = await b.createChat(conv, client);
        const createdA = await a.createChat(conv, client);
        const idB = (parseJson(createdB) as { id?: unknown } | undefined)?.id;
        const idA = (parseJson(createdA) as { id?: unknown } | undefined)?.id;
        findings.push(idA !== idB ? pass('two chats', 'the same conversation_id is a different chat in each account') : fail('two chats', `the same conversation_id gave the same chat ${String(idA)} in both accounts`));
        const inB = b.payload(conv, client);
        await b.mustSend(inB);
        const itemsA = await a.allHistory(conv, (i) => i.length >= 1);
        const counts = countByClientId(itemsA);
        findings.push(!counts.has(inB.msgid) && counts.get(inA.msgid) === 1 ? pass('A unchanged', 'A sees only its own message') : fail('A unchanged', `A's history holds ${itemsA.length} message(s), including B's: ${counts.has(inB.msgid)}`));
        return t.outcome(findings);
      },
    ),
  ],
});


