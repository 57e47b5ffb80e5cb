/**
 * Requests refused before routing (src/emulator/client-errors.ts) get their answer, never a reset: a header block
 * over Node's 16 KiB limit is answered 431 even while the client is still sending it, malformed HTTP 400.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

let emulator: RunningEmulator;
let port: number;
beforeAll(async () => {
  emulator = await startEmulator();
  port = Number(new URL(emulator.url).port);
});
afterAll(async () => { await emulator.close(); });

function get(path: string): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve(`${res.statusCode} ${res.headers['content-type']} ${JSON.parse(body).status}`));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(`no answer: ${err.code}`));
  });
}

/** Raw bytes in, everything the server sends until it closes out. */
function raw(bytes: string): Promise<{ text: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let error: string | undefined;
    socket.on('data', (c) => { text += c; });
    socket.on('error', (err: NodeJS.ErrnoException) => { error = err.code; });
    socket.on('close', () => resolve(error === undefined ? { text } : { text, error }));
    socket.end(bytes);
  });
}

describe('requests refused before routing', () => {
  it('answers a URL over the header limit 431, every time, however long the rest of the request is', async () => {
    for (const size of [17_000, 40_000, 2_000_000]) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => get(`/api/v4/companies?query=${'a'.repeat(size)}`)));
      expect(answers, `URL of ${size} bytes`).toEqual(Array(8).fill('431 application/json; charset=utf-8 431'));
    }
    expect(await get(`/api/v4/companies?query=${'a'.repeat(15_000)}`)).toBe('401 application/problem+json 401');
  });

  it('answers malformed HTTP 400 and closes the connection', async () => {
    const { text, error } = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(error).toBeUndefined();
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, title: 'Bad Request' });
  });
});
