/**
 * The emulator's own answers validate against the OpenAPI document: real requests to an embedded emulator (the token
 * exchange, the account, each list with filters, an empty page, refusals, the chat routes signed as §5.2 says), each
 * answer judged by the response its path, method and status name in the document, its media type and its schema.
 * The emulator serves the same document at GET /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi, openApiJson } from '../../src/openapi/build.js';
import { CHAT_PREFIX, Harness } from '../emulator/helpers.js';
import { answerJudge, requestJudge, type Answered, type Sent } from './answers.js';

const doc = buildOpenApi();
const judge = answerJudge(doc);
const judgeRequest = requestJudge(doc);

let h: Harness;
const answered: (Answered & { readonly request: Sent })[] = [];
/** The harness's requests that are not the service's: the control API, which the harness uses for consent. */
const OWN = /^\/(?:_control|openapi\.json)(?:\/|$)/;
const realFetch = globalThis.fetch;

/** Every request the harness sends to the service, with its answer, kept for judging. */
async function recordingFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await realFetch(input, init);
  const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
  if (OWN.test(path)) return res;
  const headers = new Headers(init?.headers);
  const method = init?.method ?? 'GET';
  const request: Sent = { method, path, ...(headers.has('content-type') ? { contentType: headers.get('content-type')! } : {}), ...(typeof init?.body === 'string' ? { body: init.body } : {}) };
  answered.push({ method, path, status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.clone().text(), request });
  return res;
}


const statuses = (method: string, pathPrefix: string) => answered.filter((a) => a.method === method && a.path.startsWith(pathPrefix)).map((a) => a.status);

beforeAll(async () => {
  h = await Harness.start();
  globalThis.fetch = recordingFetch as typeof fetch;
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await h?.close();
});

describe('the emulator\'s answers against the OpenAPI document', () => {
  it('serves the document at GET /openapi.json', async () => {
    const r = await h.request('GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.text).toBe(openApiJson());
  });

  it('serves it on the deployed shape too, at the root address (AUTH_URL), where the control API is', async () => {
    const deployed = await Harness.start({ shape: 'deployed' });
    try {
      const r = await realFetch(`${deployed.env.AUTH_URL}/openapi.json`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(openApiJson());
    } finally {
      await deployed.close();
    }
  });

  it('the token endpoint: a code grant, a refresh grant, form-encoded, and refusals', async () => {
    const token = '/oauth2/access_token';
    const code = await h.code();
    const pair = (await h.exchange(h.codeRequest(code))).json as { refresh_token: string };
    const refreshed = await h.exchange(h.refreshRequest(pair.refresh_token, { client_secret: h.env.CLIENT_SECRET, redirect_uri: h.env.REDIRECT_URI }));
    expect(refreshed.status).toBe(200);
    await h.exchange(h.refreshRequest(pair.refresh_token, { client_secret: h.env.CLIENT_SECRET, redirect_uri: h.env.REDIRECT_URI }));
    const formCode = await h.code();
    await h.postForm(token, h.codeRequest(formCode) as Record<string, string>);
    await h.exchange({ client_id: h.env.CLIENT_ID });
    await h.exchange(h.codeRequest('not-a-code'));
    expect(statuses('POST', token)).toEqual([200, 200, 400, 200, 400, 400]);
  });

  it('the account and the four lists: pages, filters of every kind, an empty page (204), refusals', async () => {
    const { access_token: bearer } = await h.tokens();
    const auth: { headers: Record<string, string> } = { headers: { authorization: `Bearer ${bearer}` } };
    const get = (path: string, init = auth) => h.request('GET', path, init);
    await get('/api/v4/account');
    await get('/api/v4/account?with=amojo_id,is_api_filter_enabled,uuid,version,drive_url,entity_names,task_types,users_groups,datetime_settings,amojo_rights');
    await get('/api/v4/account', { headers: {} });
    const queries: Record<string, readonly string[]> = {
      leads: ['limit=3', 'filter[price][from]=0&filter[price][to]=100000000&limit=2', 'filter[statuses][0][pipeline_id]=1&filter[statuses][0][status_id]=1', 'filter[pipeline_id][0]=1&filter[pipeline_id][1]=2', 'query=a&limit=2', 'page=2&limit=2'],
      contacts: ['limit=2', 'filter[id][0]=1&filter[id][1]=2&filter[id][2]=3', 'filter%5Bcreated_at%5D%5Bfrom%5D=0&limit=2'],
      companies: ['limit=2', 'filter[responsible_user_id]=1&limit=2', 'filter[updated_at][from]=0&filter[updated_at][to]=9999999999&limit=2'],
      customers: ['limit=2', 'filter[next_price]=1', 'filter[next_date][from]=0&limit=2', 'filter[status_id][]=1&filter[status_id][]=2'],
    };
    for (const [list, qs] of Object.entries(queries)) {
      for (const q of qs) await get(`/api/v4/${list}?${q}`);
      await get(`/api/v4/${list}?filter[id]=999999999`);
      await get(`/api/v4/${list}?page=abc`);
      await get(`/api/v4/${list}`, { headers: {} });
    }
    const lists = answered.filter((a) => a.path.startsWith('/api/v4/') && a.path !== '/api/v4/account');
    expect(lists.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(8);
    expect(lists.filter((a) => a.status === 204).length).toBeGreaterThanOrEqual(4);
    expect(lists.filter((a) => a.status === 400).length).toBe(4);
    expect(lists.filter((a) => a.status === 401).length).toBe(4);
    expect(statuses('GET', '/api/v4/account')).toEqual([200, 200, 401]);
  });

  it('the chat interface: connect, create chat, messages, edit, status, history, typing, react, disconnect, and refusals', async () => {
    const chat = h.chat.bind(h);
    const channel = h.env.CHANNEL_ID!;
    const account = h.env.CHAT_ACCOUNT_ID!;
    const scope = (await chat('POST', `/${channel}/connect`, { account_id: account, hook_api_version: 'v2', title: 'OpenAPI' })).json.scope_id as string;
    await chat('POST', `/${channel}/connect`, { account_id: account }, { secret: 'not-the-secret' });
    await chat('POST', '/no-such-channel/connect', { account_id: account });
    await chat('POST', `/${channel}/connect`, { hook_api_version: 'v9' });
    const client = { id: 'client-1', name: 'Ann', profile: { phone: '+10000000000', email: 'ann@example.com' } };
    await chat('POST', `/${scope}/chats`, { conversation_id: 'conv-1', user: client });
    const now = Math.floor(Date.now() / 1000);
    const payload = (msgid: string, message: Record<string, unknown>) => ({ timestamp: now, msec_timestamp: now * 1000, conversation_id: 'conv-1', msgid, sender: client, message });
    const sent = (await chat('POST', `/${scope}`, { event_type: 'new_message', payload: payload('m-1', { type: 'text', text: 'hello' }) })).json.new_message as { msgid: string };
    await chat('POST', `/${scope}`, { event_type: 'new_message', payload: payload('m-2', { type: 'picture', text: '', media: 'https://files.example/p.png', file_name: 'p.png', file_size: 10 }) });
    await chat('POST', `/${scope}`, { event_type: 'new_message', payload: { ...payload('m-3', { type: 'text', text: 'reply' }), sender: { id: 'manager', name: 'M', ref_id: h.env.MANAGER_USER_ID ?? 'manager' }, receiver: client } });
    await chat('POST', `/${scope}`, { event_type: 'edit_message', payload: { conversation_id: 'conv-1', msgid: 'm-1', message: { type: 'text', text: 'hello again' } } });
    await chat('POST', `/${scope}`, { event_type: 'new_message', payload: { conversation_id: 'conv-1' } });
    await chat('POST', `/${scope}/${sent.msgid}/delivery_status`, { status_code: 2 });
    await chat('POST', `/${scope}/no-such-message/delivery_status`, { status_code: 1 });
    await chat('GET', `/${scope}/chats/conv-1/history?offset=0&limit=10`);
    await chat('GET', `/${scope}/chats/no-such-conversation/history`);
    await chat('GET', `/${scope}/chats/conv-1/history?limit=51`);
    await chat('POST', `/${scope}/typing`, { conversation_id: 'conv-1', sender: { id: client.id } });
    await chat('POST', `/${scope}/react`, { conversation_id: 'conv-1', msgid: 'm-1', user: { id: client.id }, type: 'react', emoji: '👍' });
    await chat('POST', `/${scope}/react`, { conversation_id: 'conv-1', msgid: 'no-such-message', user: { id: client.id }, type: 'react', emoji: '👍' });
    await chat('POST', '/no-such-scope/typing', { conversation_id: 'conv-1', sender: { id: client.id } });
    await chat('DELETE', `/${channel}/disconnect`, { account_id: account });
    const seen = answered.filter((a) => a.path.startsWith(CHAT_PREFIX)).map((a) => `${a.method} ${a.status}`);
    expect(seen).toEqual([
      'POST 200', 'POST 403', 'POST 404', 'POST 400', 'POST 200', 'POST 200', 'POST 200', 'POST 200', 'POST 200', 'POST 400',
      'POST 200', 'POST 404', 'GET 200', 'GET 204', 'GET 400', 'POST 204', 'POST 200', 'POST 404', 'POST 404', 'DELETE 200',
    ]);
  });

  it('the catalog clients read before filtering (not in the spec): pipelines, statuses, custom fields, and refusals', async () => {
    const { access_token: bearer } = await h.tokens();
    const get = (path: string, headers: Record<string, string> = { authorization: `Bearer ${bearer}` }) => h.request('GET', path, { headers });
    const pipelines = (await get('/api/v4/leads/pipelines')).json as { _embedded: { pipelines: { id: number; _embedded: { statuses: { id: number }[] } }[] } };
    const [pipeline] = pipelines._embedded.pipelines;
    await get(`/api/v4/leads/pipelines/${pipeline!.id}`);
    await get(`/api/v4/leads/pipelines/${pipeline!.id}/statuses`);
    await get(`/api/v4/leads/pipelines/${pipeline!.id}/statuses/${pipeline!._embedded.statuses[0]!.id}`);
    await get('/api/v4/leads/pipelines/999999999');
    await get('/api/v4/customers/statuses');
    for (const list of ['leads', 'contacts', 'companies', 'customers']) await get(`/api/v4/${list}/custom_fields`);
    await get('/api/v4/leads/pipelines', {});
    expect(statuses('GET', '/api/v4/leads/pipelines')).toEqual([200, 200, 200, 200, 404, 401]);
    expect(statuses('GET', '/api/v4/customers/statuses')).toEqual([200]);
    expect(answered.filter((a) => a.path.endsWith('/custom_fields')).map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('every answer above is described by the document: its status, media type and body', () => {
    expect(answered.length).toBeGreaterThan(50);
    expect(answered.flatMap(judge)).toEqual([]);
    // Each described kind of answer was met: a JSON body, HAL JSON, problem+json, and an empty body.
    const types = new Set(answered.map((a) => a.contentType.split(';')[0]));
    expect([...types].sort()).toEqual(expect.arrayContaining(['application/hal+json', 'application/json', 'application/problem+json']));
    expect(answered.some((a) => a.text === '')).toBe(true);
  });

  it('every request the emulator accepted is described by the request body of its operation', () => {
    const accepted = answered.filter((a) => a.status >= 200 && a.status < 300);
    expect(accepted.filter((a) => a.request.body !== undefined).length).toBeGreaterThan(12);
    expect(accepted.flatMap((a) => judgeRequest(a.request))).toEqual([]);
  });

  it('the judge refuses an answer the document does not describe (the check can fail)', () => {
    const base = { method: 'GET', path: '/api/v4/account', contentType: 'application/hal+json', text: '{"id":1,"name":"a","subdomain":"s"}' };
    expect(judge({ ...base, status: 200 })).toEqual([]);
    expect(judge({ ...base, status: 200, text: '{"id":"1","name":"a","subdomain":"s"}' })).not.toEqual([]);
    expect(judge({ ...base, status: 200, contentType: 'text/plain' })).not.toEqual([]);
    expect(judge({ ...base, status: 418 })).not.toEqual([]);
    expect(judge({ ...base, path: '/api/v4/nothing', status: 200 })).not.toEqual([]);
    const token = { method: 'POST', path: '/oauth2/access_token', contentType: 'application/json' };
    expect(judgeRequest({ ...token, body: JSON.stringify({ client_id: 'c', grant_type: 'refresh_token', refresh_token: 'r', redirect_uri: 'u' }) })).toEqual([]);
    expect(judgeRequest({ ...token, body: JSON.stringify({ client_id: 'c', grant_type: 'authorization_code', redirect_uri: 'u' }) })).not.toEqual([]);
  });
});
