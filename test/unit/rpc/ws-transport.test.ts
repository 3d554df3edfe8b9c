/**
 * The WebSocket transport on a real socket: frames sent in one turn of the event loop leave together and
 * arrive whole and in order; a connection on its way out reports no room, so nothing waiting for room
 * commits a removal whose reply could no longer leave.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { wsTransport } from '@qk/rpc/node';

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

test('a connection that has closed reports no room and refuses sends', async () => {
  const { server, client } = await pair();
  const transport = wsTransport(server);
  expect(transport.bufferedBytes()).toBe(0);
  client.terminate();
  await once(server, 'close');
  expect(transport.bufferedBytes()).toBe(Infinity);
  await expect(transport.send('{}')).rejects.toThrow();
});
