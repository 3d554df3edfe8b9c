/**
 * The WebSocket transport on a real socket: frames sent in one turn of the event loop leave together, in
 * writes of FRAMES_PER_WRITE, and arrive whole and in order; a frame sent `now` leaves at once; a connection on
 * its way out reports no room, so nothing waiting for room commits a removal whose reply could no longer leave.
 */
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { FRAMES_PER_WRITE, wsTransport } from '@qk/rpc/node';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

async function pair(): Promise<{ server: WebSocket; client: WebSocket }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  open.push(wss);
  await once(wss, 'listening');
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  open.push(client);
  const [server] = (await once(wss, 'connection')) as [WebSocket];
  if (client.readyState !== client.OPEN) await once(client, 'open');
  return { server, client };
}

test('frames sent in one turn all arrive, whole and in order, and each send resolves', async () => {
  const { server, client } = await pair();
  const transport = wsTransport(server);
  const got: string[] = [];
  client.on('message', (data: Buffer) => got.push(data.toString('utf8')));
  const frames = Array.from({ length: 500 }, (_, i) =>
    JSON.stringify({ id: i, body: 'x'.repeat(i % 7 === 0 ? 70_000 : 200) }),
  );
  await Promise.all(frames.map((f) => transport.send(f)));
  for (let i = 0; i < 200 && got.length < frames.length; i++) await new Promise((r) => setTimeout(r, 10));
  expect(got).toEqual(frames);
});

/** Counts the system-call writes of a ws socket (net.Socket's _write and _writev both end in _writeGeneric). */
function countWrites(ws: WebSocket): { readonly count: number } {
  const socket = (ws as unknown as { _socket: Socket & { _writeGeneric: (...args: unknown[]) => unknown } })._socket;
  const original = socket._writeGeneric.bind(socket);
  const counter = { count: 0 };
  socket._writeGeneric = (...args: unknown[]) => {
    counter.count++;
    return original(...args);
  };
  return counter;
}

test('a long turn of frames leaves in writes of FRAMES_PER_WRITE, so the reader starts before the last is made', async () => {
  const { server, client } = await pair();
  const transport = wsTransport(server);
  const writes = countWrites(server);
  const got: string[] = [];
  client.on('message', (data: Buffer) => got.push(data.toString('utf8')));
  const frames = Array.from({ length: 3 * FRAMES_PER_WRITE + 5 }, (_, i) => JSON.stringify({ id: i }));
  const sending = frames.map((f) => transport.send(f));
  // Three full parts have left within the turn; the last five wait for its end.
  expect(writes.count).toBe(3);
  await Promise.all(sending);
  expect(writes.count).toBe(4);
  for (let i = 0; i < 200 && got.length < frames.length; i++) await new Promise((r) => setTimeout(r, 10));
  expect(got).toEqual(frames);
});

test('a frame sent now leaves at once, with what was held before it, in order', async () => {
  const { server, client } = await pair();
  const transport = wsTransport(server);
  const writes = countWrites(server);
  const got: string[] = [];
  client.on('message', (data: Buffer) => got.push(data.toString('utf8')));
  const sending = [transport.send('{"n":1}'), transport.send('{"n":2}')];
  expect(writes.count).toBe(0);
  sending.push(transport.send('{"type":"credit","id":1,"count":25}', { now: true }));
  expect(writes.count).toBe(1);
  sending.push(transport.send('{"n":3}'));
  expect(writes.count).toBe(1);
  await Promise.all(sending);
  expect(writes.count).toBe(2);
  for (let i = 0; i < 200 && got.length < 4; i++) await new Promise((r) => setTimeout(r, 10));
  expect(got).toEqual(['{"n":1}', '{"n":2}', '{"type":"credit","id":1,"count":25}', '{"n":3}']);
});

test('a connection that has closed reports no room and refuses sends', async () => {
  const { server, client } = await pair();
  const transport = wsTransport(server);
  expect(transport.bufferedBytes()).toBe(0);
  client.terminate();
  await once(server, 'close');
  expect(transport.bufferedBytes()).toBe(Infinity);
  await expect(transport.send('{}')).rejects.toThrow();
});
