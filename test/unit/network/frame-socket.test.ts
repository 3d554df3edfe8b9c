import { createServer, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { frameSocket } from '@qk/network';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

/** A connected pair of sockets on loopback. */
async function pair(): Promise<[Socket, Socket]> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const client = connect(port, '127.0.0.1');
  const serverSide = await accepted;
  cleanup.push(() => {
    client.destroy();
    serverSide.destroy();
    server.close();
  });
  return [client, serverSide];
}

describe('frames over a socket', () => {
  test('frames arrive whole and in order, whatever the chunking, multi-byte text included', async () => {
    const [a, b] = await pair();
    const sender = frameSocket(a);
    const receiver = frameSocket(b);
    const got: string[] = [];
    receiver.attach({ frame: (t) => got.push(t), closed: () => undefined });
    sender.attach({ frame: () => undefined, closed: () => undefined });
    const frames = ['{"a":1}', 'é'.repeat(100_000), '', JSON.stringify({ big: 'x'.repeat(1_000_000) }), '→←'];
    for (const f of frames) await sender.send(f);
    await expect.poll(() => got.length, { timeout: 5_000 }).toBe(frames.length);
    expect(got).toEqual(frames);
  });

  test('frames split anywhere — inside the 4-byte header, several in one read — are put together once each', async () => {
    const [a, b] = await pair();
    const receiver = frameSocket(b);
    const got: string[] = [];
    receiver.attach({ frame: (t) => got.push(t), closed: () => undefined });
    const frames = ['one', '', 'x'.repeat(70_000), 'ü→', '{"last":true}'];
    const bytes = Buffer.concat(
      frames.map((f) => {
        const body = Buffer.from(f, 'utf8');
        const header = Buffer.alloc(4);
        header.writeUInt32BE(body.length, 0);
        return Buffer.concat([header, body]);
      }),
    );
    // Slices of 1, 2, 3, … bytes: headers and bodies cut at every kind of place.
    a.setNoDelay(true);
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size % 13) + 1) {
      a.write(bytes.subarray(at, Math.min(bytes.length, at + size)));
      if (at < 200) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await expect.poll(() => got.length, { timeout: 5_000 }).toBe(frames.length);
    expect(got).toEqual(frames);
  });

  test('a frame larger than the limit closes the connection and is never handed on', async () => {
    const [a, b] = await pair();
    const receiver = frameSocket(b, 1_000);
    const got: string[] = [];
    let closed: string | undefined;
    receiver.attach({ frame: (t) => got.push(t), closed: (why) => (closed = why ?? 'closed') });
    const sender = frameSocket(a);
    sender.attach({ frame: () => undefined, closed: () => undefined });
    await sender.send('x'.repeat(10)).catch(() => undefined);
    await sender.send('y'.repeat(5_000)).catch(() => undefined);
    await expect.poll(() => closed, { timeout: 5_000 }).toMatch(/larger than/);
    expect(got).toEqual(['x'.repeat(10)]);
  });

  test('send after the peer went away rejects; the sink hears of the close once', async () => {
    const [a, b] = await pair();
    const conn = frameSocket(a);
    let closes = 0;
    conn.attach({ frame: () => undefined, closed: () => (closes += 1) });
    b.destroy();
    await expect.poll(() => closes, { timeout: 5_000 }).toBe(1);
    await expect(conn.send('late')).rejects.toThrow();
    expect(closes).toBe(1);
  });
});
