import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { FaultProxy } from '../../helpers/fault-proxy.js';

const disposers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of disposers.splice(0).reverse()) await fn();
});

/** An echo server that answers every chunk with `ok:<bytes>`; its sockets are closed with it. */
async function echo(): Promise<{ server: Server; address: string; received: () => number }> {
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => {
      received += d.length;
      socket.write(`ok:${d.length};`);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  disposers.push(() => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { server, address: `127.0.0.1:${(server.address() as { port: number }).port}`, received: () => received };
}

async function client(address: string): Promise<{ socket: Socket; text: () => string; closed: () => boolean }> {
  const [host, port] = address.split(':') as [string, string];
  const socket = connect(Number(port), host);
  let text = '';
  let closed = false;
  socket.on('data', (d) => (text += d.toString()));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  disposers.push(() => void socket.destroy());
  return { socket, text: () => text, closed: () => closed };
}

describe('fault proxy', () => {
  test('passes bytes both ways and counts them', async () => {
    const target = await echo();
    const proxy = await FaultProxy.start(target.address);
    disposers.push(() => proxy.close());
    const c = await client(proxy.address);
    c.socket.write('hello');
    await expect.poll(c.text).toBe('ok:5;');
    expect(proxy.stats).toMatchObject({ connections: 1, bytesUp: 5, bytesDown: 5 });
  });

  test('cutReply: the data reaches the other side, its answer does not, and the connection is cut', async () => {
    const target = await echo();
    const proxy = await FaultProxy.start(target.address);
    disposers.push(() => proxy.close());
    proxy.mode = { kind: 'cutReply', afterBytesUp: 3, times: 1 };
    const c = await client(proxy.address);
    c.socket.write('data!');
    await expect.poll(c.closed).toBe(true);
    expect(target.received()).toBe(5);
    expect(c.text()).toBe('');
    expect(proxy.stats.cuts).toBe(1);
    // One time only: the next connection passes.
    const again = await client(proxy.address);
    again.socket.write('again');
    await expect.poll(again.text).toBe('ok:5;');
  });

  test('drop holds everything; cut() ends open connections; refuse closes new ones', async () => {
    const target = await echo();
    const proxy = await FaultProxy.start(target.address);
    disposers.push(() => proxy.close());
    proxy.mode = { kind: 'drop' };
    const c = await client(proxy.address);
    c.socket.write('lost');
    await new Promise((r) => setTimeout(r, 200));
    expect(target.received()).toBe(0);
    expect(c.closed()).toBe(false);
    expect(proxy.cut()).toBe(1);
    await expect.poll(c.closed).toBe(true);
    proxy.mode = { kind: 'refuse' };
    const refused = await client(proxy.address);
    await expect.poll(refused.closed).toBe(true);
  });

  test('duplicate and delay change what the other side sees', async () => {
    const target = await echo();
    const proxy = await FaultProxy.start(target.address);
    disposers.push(() => proxy.close());
    proxy.mode = { kind: 'duplicate' };
    const c = await client(proxy.address);
    c.socket.write('ab');
    await expect.poll(() => target.received()).toBe(4);
    proxy.mode = { kind: 'delay', ms: 300 };
    const started = Date.now();
    const d = await client(proxy.address);
    d.socket.write('x');
    await expect.poll(d.text, { timeout: 3_000 }).toMatch(/ok:1;/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });
});
