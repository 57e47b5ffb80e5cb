/**
 * A server may answer a large body before it has read it and close (RFC 9110 §15.5.14; nginx does with 413): the
 * kit reads that early answer every time instead of failing with EPIPE (issue 28 §8), and a server that drops the
 * connection without answering is still a reset.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportError } from '../../src/errors.js';
import { startEmulator } from '../../src/emulator/index.js';
import { EARLY_ANSWER_BYTES, HttpClient } from '../../src/targets/http.js';

let server: Server;
let base = '';
const BIG = 'x'.repeat(2 * 1024 * 1024);

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/early') {
      // Answers on the head, reads nothing, closes: the client is still writing its 2 MB.
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"error":"too large"}', () => req.socket.destroy());
    } else if (req.url === '/drop') req.socket.destroy();
    else {
      let n = 0;
      req.on('data', (c: Buffer) => (n += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ read: n })));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('an answer before the body is all sent', () => {
  it('is read and returned, twenty times in a row', async () => {
    const client = new HttpClient();
    try {
      for (let i = 0; i < 20; i += 1) {
        const res = await client.send({ method: 'POST', url: `${base}/early`, headers: { 'content-type': 'application/json' }, body: BIG });
        expect(res.status).toBe(413);
        expect(res.text).toBe('{"error":"too large"}');
      }
    } finally {
      await client.close();
    }
  });

  it('a large body the server reads arrives whole', async () => {
    const client = new HttpClient();
    try {
      const res = await client.send({ method: 'POST', url: `${base}/read`, body: BIG });
      expect(JSON.parse(res.text)).toEqual({ read: BIG.length });
      expect(BIG.length).toBeGreaterThan(EARLY_ANSWER_BYTES);
    } finally {
      await client.close();
    }
  });

  it('no answer at all is still a reset', async () => {
    const client = new HttpClient();
    try {
      const err = await client.send({ method: 'POST', url: `${base}/drop`, body: BIG }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect((err as TransportError).kind).toBe('reset');
    } finally {
      await client.close();
    }
  });

  it('the emulator reads an oversized token body whole and answers 413, twenty times in a row', async () => {
    const emulator = await startEmulator();
    const client = new HttpClient();
    try {
      for (let i = 0; i < 20; i += 1) {
        const res = await client.send({ method: 'POST', url: `${emulator.url}/oauth2/access_token`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: BIG }) });
        expect(res.status).toBe(413);
      }
    } finally {
      await client.close();
      await emulator.close();
    }
  });
});
