/**
 * The ceiling of measure 1: a bare node:http server doing the same crypto a signed chat request costs (MD5 of the
 * body, HMAC-SHA1 of a signing string) and answering a body of the given size. Run in its own process.
 * Usage: node --import tsx bench/ceiling-server.ts <port> <POST response bytes> <GET response bytes>
 */
import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const bodyOf = (size: number) => Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, size - 10)) }).slice(0, size));
const postBody = bodyOf(Number(process.argv[3] ?? 200));
const getBody = bodyOf(Number(process.argv[4] ?? 200));

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const md5 = createHash('md5').update(body).digest('hex');
    const signing = [req.method, md5, req.headers['content-type'] ?? '', req.headers.date ?? '', (req.url ?? '').split('?')[0]].join('\n');
    const ok = createHmac('sha1', 'bench-secret-0123456789').update(signing).digest('hex') === req.headers['x-signature'];
    // The answer does not depend on `ok`: the point is that the work was done, as the emulator does it.
    const responseBody = req.method === 'GET' ? getBody : postBody;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': responseBody.length, 'x-signature-ok': String(ok) });
    res.end(responseBody);
  });
}).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
