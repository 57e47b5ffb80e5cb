/**
 * The full run's baseline in `npm run bench` (measure 3): a fixed piece of work of the full run's own kind, timed in a
 * process of its own beside each full run, so that the run is judged as a ratio to what the machine gives at that
 * moment rather than in seconds that other work on the machine stretches.
 *
 * The kind: a Node process whose main thread sends HTTP requests over keep-alive connections to a server on a worker
 * thread of the same process (as the kit does to its embedded emulator), both sides signing, parsing and building JSON
 * bodies of a list page's size; startup included, as in the full run. It depends on nothing of the kit, so a change to
 * the kit never moves its baseline. Plain JavaScript (no tsx), so its start is Node's own.
 *
 * Prints the seconds it took.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { Pool } from 'undici';

const REQUESTS = 6_000;
const CONNECTIONS = 8;
const KEY = 'reference-load-key-0123456789';

/** A body like a list page: 25 records of a dozen fields. */
function page(n) {
  return {
    _page: n,
    _embedded: {
      leads: Array.from({ length: 25 }, (_, i) => ({
        id: n * 100 + i, name: `Lead ${n}-${i}`, price: (n * 7919 + i * 104729) % 1_000_000, responsible_user_id: i % 5,
        status_id: 142 + (i % 3), pipeline_id: 1 + (i % 2), created_at: 1_700_000_000 + i, updated_at: 1_700_000_100 + i,
        custom_fields_values: [{ field_id: i, values: [{ value: `v${n}-${i}` }] }], _links: { self: { href: `/api/v4/leads/${n * 100 + i}` } },
      })),
    },
  };
}

const sign = (text) => createHmac('sha256', KEY).update(text).digest('hex');

if (!isMainThread) {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const asked = JSON.parse(body);
      if (asked.signature !== sign(asked.query)) res.statusCode = 401;
      const text = JSON.stringify(page(asked.n));
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-signature', sign(text));
      res.end(text);
    });
  });
  server.keepAliveTimeout = 10_000;
  server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
} else {
  const started = performance.now();
  const worker = new Worker(new URL(import.meta.url));
  const port = await new Promise((resolve) => worker.once('message', resolve));
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONNECTIONS });
  let next = 0;
  let checksum = 0;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (next < REQUESTS) {
      const n = next++;
      const query = `filter[price][from]=${n}&limit=25`;
      const res = await pool.request({ method: 'POST', path: '/api/v4/leads', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n, query, signature: sign(query) }) });
      const text = await res.body.text();
      if (res.statusCode !== 200 || res.headers['x-signature'] !== sign(text)) throw new Error(`reference request ${n} answered ${res.statusCode}`);
      checksum += JSON.parse(text)._embedded.leads.reduce((s, l) => s + l.price, 0) % 7;
    }
  }));
  await pool.close();
  await worker.terminate();
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(3)} ${checksum}\n`);
}
