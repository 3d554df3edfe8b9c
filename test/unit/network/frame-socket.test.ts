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

/** The bytes of a text frame and of a binary frame, as a peer writes them. */
const textFrame = (text: string): Buffer => header(Buffer.from(text, 'utf8'), 0);
const binaryFrame = (data: Buffer): Buffer => header(data, 0x80000000);
function header(body: Buffer, flag: number): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE((flag | body.length) >>> 0, 0);
  return Buffer.concat([head, body]);
}

/** A receiving end that keeps every frame, text as text and binary as hex, in the order they came. */
function recording(socket: Socket, max?: number) {
  const got: string[] = [];
  const views: Buffer[] = [];
  let closed: string | undefined;
  frameSocket(socket, max).attach({
    frame: (t) => got.push(`text ${t}`),
    binary: (data) => {
      views.push(data);
      got.push(`binary ${data.toString('hex')}`);
    },
    closed: (why) => (closed = why ?? 'closed'),
  });
  return { got, views, closed: () => closed };
}

describe('binary frames', () => {
  const bytes = (n: number, seed = 1): Buffer =>
    Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff));

  test('arrive whole, in order with text frames, empty, large and sent in parts; a view of what was read', async () => {
    const [a, b] = await pair();
    const sender = frameSocket(a);
    sender.attach({ frame: () => undefined, closed: () => undefined });
    const receiver = recording(b);
    const large = bytes(3_000_000, 7);
    await sender.send('{"first":1}');
    await sender.sendBinary(bytes(10));
    await sender.sendBinary(Buffer.alloc(0));
    await sender.send('é→');
    await sender.sendBinary(large);
    await sender.send('');
    await sender.sendBinary([bytes(3), Buffer.alloc(0), bytes(2, 5)]);
    const expected = [
      'text {"first":1}',
      `binary ${bytes(10).toString('hex')}`,
      'binary ',
      'text é→',
      `binary ${large.toString('hex')}`,
      'text ',
      `binary ${Buffer.concat([bytes(3), bytes(2, 5)]).toString('hex')}`,
    ];
    await expect.poll(() => receiver.got.length, { timeout: 5_000 }).toBe(expected.length);
    expect(receiver.got).toEqual(expected);
    // The large one came in many reads, joined once: its bytes are a view of that, not a further copy.
    const view = receiver.views[2] as Buffer;
    expect(view.byteOffset).toBe(4);
    expect(view.buffer.byteLength).toBeGreaterThanOrEqual(view.length + 4);
  });

  test('split anywhere, headers included, and several in one read, mixed with text frames', async () => {
    const [a, b] = await pair();
    const receiver = recording(b);
    const frames: [string, Buffer][] = [
      ['binary', bytes(5)],
      ['text', Buffer.from('one')],
      ['binary', Buffer.alloc(0)],
      ['binary', bytes(70_000, 3)],
      ['text', Buffer.from('ü→')],
      ['binary', bytes(1, 9)],
    ];
    const stream = Buffer.concat(
      frames.map(([kind, data]) => (kind === 'text' ? textFrame(data.toString()) : binaryFrame(data))),
    );
    a.setNoDelay(true);
    for (let at = 0, size = 1; at < stream.length; at += size, size = (size % 13) + 1) {
      a.write(stream.subarray(at, Math.min(stream.length, at + size)));
      if (at < 200) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    // And all of them again in one write: one read holding several frames.
    a.write(stream);
    const expected = frames.map(
      ([kind, data]) => `${kind} ${kind === 'text' ? data.toString() : data.toString('hex')}`,
    );
    await expect.poll(() => receiver.got.length, { timeout: 5_000 }).toBe(expected.length * 2);
    expect(receiver.got).toEqual([...expected, ...expected]);
  });

  test('one larger than the limit closes the connection and is never handed on; the sender refuses to send one', async () => {
    const [a, b] = await pair();
    const receiver = recording(b, 1_000);
    a.write(Buffer.concat([binaryFrame(bytes(1_000)), binaryFrame(bytes(1_001))]));
    await expect.poll(() => receiver.closed(), { timeout: 5_000 }).toMatch(/larger than/);
    expect(receiver.got).toEqual([`binary ${bytes(1_000).toString('hex')}`]);

    const [c] = await pair();
    const sender = frameSocket(c, 1_000);
    sender.attach({ frame: () => undefined, closed: () => undefined });
    await expect(sender.sendBinary(bytes(1_001))).rejects.toThrow(/larger than/);
  });

  test('one arriving at a sink that takes none ends the connection; what came before was handed on', async () => {
    const [a, b] = await pair();
    const got: string[] = [];
    let closed: string | undefined;
    frameSocket(b).attach({ frame: (t) => got.push(t), closed: (why) => (closed = why ?? 'closed') });
    a.write(Buffer.concat([textFrame('before'), binaryFrame(bytes(8)), textFrame('after')]));
    await expect.poll(() => closed, { timeout: 5_000 }).toMatch(/binary frame/);
    expect(got).toEqual(['before']);
  });
});
