// docs/examples/vitest-https/https.test.ts
import https from 'node:https';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useSandbox } from 'conformance-kit/vitest';

// https with a CA made for this sandbox; each account also at https://<subdomain>.sandbox.localhost:<port>.
const sandbox = useSandbox({ https: true });

// What a client that builds https://{subdomain}.<domain> needs: an agent that trusts the sandbox's CA (sandbox.tls.ca)
// and resolves the accounts' host names to it (sandbox.lookup). A client on the global fetch takes undici's
// `new Agent({ connect: { ca, lookup } })` instead; a client in another process, NODE_EXTRA_CA_CERTS=<sandbox.tls.caFile>.
let agent: https.Agent;
beforeAll(() => { agent = new https.Agent({ ca: sandbox.tls!.ca, lookup: sandbox.lookup }); });
afterAll(() => agent.destroy());

function getJson(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${sandbox.settings.LONG_LIVED_TOKEN}` };
    https.get(url, { agent, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    }).on('error', reject);
  });
}

it('answers over https at the sandbox address and at the account\'s own host name', async () => {
  expect(sandbox.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const byAddress = await getJson(`${sandbox.url}/api/v4/account`);
  const byHost = await getJson(`${sandbox.accountUrl()}/api/v4/account`);
  expect([byAddress.status, byHost.status]).toEqual([200, 200]);
  expect(byHost.body.id).toBe(byAddress.body.id);
  expect(sandbox.accountUrl()).toBe(`https://${byHost.body.subdomain}.sandbox.localhost:${new URL(sandbox.url).port}`);
  // Links name the host the client called.
  expect(byHost.body._links.self.href).toBe(`${sandbox.accountUrl()}/api/v4/account`);
});
