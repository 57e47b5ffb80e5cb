/**
 * Requests Node refuses before any route sees them (header block over Node's 16 KiB limit, malformed HTTP, no
 * headers in time) still get their answer. fastify's default writes the answer and destroys the socket at once; when
 * the client is still sending (a long URL crosses TCP segments), the unread bytes make the kernel reset the
 * connection, and a reset discards the answer on the client's side: a request "answered by a closed socket". So the
 * answer is sent with `Connection: close`, the write side is closed, and what the client still sends is read and
 * dropped until it closes its side (a lingering close, RFC 9112 §9.6), bounded in time.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from './clock.js';
import { problemBody } from './errors.js';
import type { FaultSwitches } from './faults.js';

/** How long a refused client may keep sending before the connection is dropped anyway. */
export const LINGER_MS = 5_000;

const DETAILS: Record<number, string> = {
  400: 'The request is not valid HTTP',
  408: 'The request headers did not arrive in time',
  431: 'The request line and headers exceed 16 KiB',
  500: 'The request could not be buffered',
};

/** Node emits `clientError` again for every later chunk of a refused request: one answer per socket. */
const answered = new WeakSet<Socket>();

export function clientErrorHandler(clock: Clock, faults?: FaultSwitches): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    if (err.code === 'ECONNRESET' || socket.destroyed || (err.code === 'HPE_HEADER_OVERFLOW' && faults?.isOn('header-overflow-reset'))) {
      socket.destroy();
      return;
    }
    // Only for the `header-overflow-500` fault: a front proxy that answers a request it cannot buffer as its own failure.
    const overflow = faults?.isOn('header-overflow-500') ? 500 : 431;
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? overflow : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = JSON.stringify(problemBody({ status, detail: DETAILS[status]! }));
    if (socket.writable) {
      socket.end([
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `Date: ${clock.date().toUTCString()}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'));
    }
    // The HTTP parser's reader is replaced by one that drops the rest of the refused request.
    socket.removeAllListeners('data');
    socket.on('data', () => {});
    socket.resume();
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
