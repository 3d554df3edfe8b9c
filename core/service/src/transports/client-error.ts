/**
 * The answer to a request the HTTP parser cannot read (malformed, headers too large, too slow). Fastify's
 * default writes a bare 400 without `Connection: close` and destroys the socket: a client that keeps its
 * connections alive saw a complete answer, reused the socket and lost its next request to EPIPE (the API fuzz
 * drill's unanswered calls). Here the answer is the contract's envelope with a stable code, it says the
 * connection closes, and the socket closes once the answer is written.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Envelope, ErrorBody } from '@qk/api';

function answerFor(error: NodeJS.ErrnoException): { status: number; body: ErrorBody } {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, body: { code: 'INVALID_PARAMETER', message: 'The request headers are too large.' } };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, body: { code: 'IO_TIMEOUT', message: 'The request did not arrive in time.' } };
  return { status: 400, body: { code: 'INVALID_PARAMETER', message: 'The request is not valid HTTP.' } };
}

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body } = answerFor(error);
  const envelope: Envelope<never> = { ok: false, error: body };
  const text = JSON.stringify(envelope);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
    () => socket.destroy(),
  );
}
