import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { ANY_SERVICE_CONNECT_SRC, consoleContentSecurityPolicy, eventSchema, operations } from '@qk/api';
import { serverFrameSchema, type ServerFrame } from '@qk/rpc';
import { ServiceHost, startHttpServer, type HttpServer } from '@qk/service';
import { post, tempDataDir } from './helpers.js';

const TOKEN = 'a'.repeat(64);

type FramePredicate = (frame: ServerFrame) => boolean;

/** Matches the result frame of call `id`. */
const resultOf =
  (id: number): FramePredicate =>
  (frame) =>
    frame.type === 'result' && frame.id === id;

/** The value of a successful result frame; anything else fails the test with the frame. */
function valueOf(frame: ServerFrame): unknown {
  if (frame.type !== 'result' || !frame.ok) throw new Error(`Expected a successful result: ${JSON.stringify(frame)}`);
  return frame.value;
}

/** A WebSocket client that records frames (each checked against the contract's frame schema), for the tests below. */
async function openSocket(
  url: string,
  query = '',
): Promise<{ ws: WebSocket; frames: ServerFrame[]; next: (pred: FramePredicate) => Promise<ServerFrame> }> {
  const ws = new WebSocket(
    `${url.replace('http', 'ws')}/api/v1/ws${query}`,
    query ? {} : { headers: { authorization: `Bearer ${TOKEN}` } },
  );
  const frames: ServerFrame[] = [];
  const waiting: { pred: FramePredicate; resolve: (frame: ServerFrame) => void }[] = [];
  ws.on('message', (data: Buffer) => {
    const frame = serverFrameSchema.parse(JSON.parse(data.toString('utf8')));
    frames.push(frame);
    for (const w of [...waiting]) {
      if (!w.pred(frame)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(frame);
    }
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const next = (pred: FramePredicate) => {
    const seen = frames.find(pred);
    return seen ? Promise.resolve(seen) : new Promise<ServerFrame>((resolve) => waiting.push({ pred, resolve }));
  };
  return { ws, frames, next };
}

describe('HTTP + WebSocket server over the real engine', () => {
  let host: ServiceHost;
  let server: HttpServer;
  let cleanup: () => void;
  let stopRequests = 0;

  beforeAll(async () => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    host = ServiceHost.open({ dataDir: temp.dir, name: 'HTTPTEST' });
    host.onStopRequested(() => stopRequests++);
    server = await startHttpServer(host, { listen: { host: '127.0.0.1', port: 0 }, token: TOKEN, consoleDir: null });
  });
  afterAll(async () => {
    await server.close();
    await host.close();
    cleanup();
  });

  it('a request the HTTP parser cannot read gets the contract envelope and Connection: close, and the socket closes', async () => {
    const { port } = new URL(server.url);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (answer += chunk));
        socket.on('error', reject);
        // 'close' (not a timeout): the service ends the connection itself once it has answered.
        socket.on('close', () => resolve(answer));
        socket.write(request);
      });
    const malformed = await raw('POST /api/v1/queueList HTTP/1.1\r\nHost: 127.0.0.1\r\nNot a header\r\n\r\n');
    const oversized = await raw(
      `POST /api/v1/queueList HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    );
    for (const [answer, status] of [
      [malformed, 400],
      [oversized, 431],
    ] as const) {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
      expect(head.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(body)).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    }
  });

  it('listens on loopback; a console link carries a one-time code, exchanged once for a session token', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const link = server.consoleLink();
    expect(link).toMatch(new RegExp(`^${server.url}/#code=[A-Za-z0-9_-]{32}$`));
    expect(link).not.toContain(TOKEN);
    const code = link.split('#code=')[1];
    const exchange = () =>
      fetch(`${server.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    const first = await exchange();
    expect(first).toMatchObject({
      status: 200,
      body: { ok: true, value: { token: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    const session = z.object({ value: z.object({ token: z.string() }) }).parse(first.body).value.token;
    expect(session).not.toBe(TOKEN);
    expect(await post(server.url, 'queueList', {}, session)).toMatchObject({ status: 200 });
    expect(await exchange()).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
  });

  it('refuses requests without the right token with a 401 UNAUTHORIZED envelope', async () => {
    expect(await post(server.url, 'queueList', {}, undefined)).toMatchObject({
      status: 401,
      body: { ok: false, error: { code: 'UNAUTHORIZED' } },
    });
    expect(await post(server.url, 'queueList', {}, 'b'.repeat(64))).toMatchObject({
      status: 401,
      body: { ok: false, error: { code: 'UNAUTHORIZED' } },
    });
    expect(await post(server.url, 'queueList', {}, TOKEN)).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('refuses every path under the API without the token, however it is spelled, before saying what exists', async () => {
    const ask = (method: string, path: string, token?: string) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        ...(method === 'POST' ? { body: '{}' } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));
    for (const [method, path] of [
      ['POST', '/API/V1/queueList'],
      ['GET', '/api/v1/queueList'],
      ['POST', '/api/v1/noSuchOperation'],
      ['POST', '/api/v2/queueList'],
      ['POST', '/Api'],
    ] as const)
      expect(await ask(method, path), `${method} ${path}`).toMatchObject({
        status: 401,
        body: { ok: false, error: { code: 'UNAUTHORIZED' } },
      });
    // With it, an unknown operation or path is named as one.
    expect(await ask('POST', '/api/v1/noSuchOperation', TOKEN)).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 'INVALID_PARAMETER' } },
    });
    expect(await ask('GET', '/api/v1/queueList', TOKEN)).toMatchObject({
      status: 404,
      body: { ok: false, error: { code: 'INVALID_PARAMETER' } },
    });
  });

  it('answers a URL it cannot decode in the envelope: 400 INVALID_PARAMETER, no framework error shape', async () => {
    for (const path of ['/api/v1/%ff', '/%', '/assets/%E0%A4%A']) {
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: '{}',
      });
      expect(response.status, path).toBe(400);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body, path).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
      expect(Object.keys(body).sort(), path).toEqual(['error', 'ok']);
    }
  });

  it('answers in the envelope with the status of the error code', async () => {
    const created = await post(server.url, 'queueCreate', { path: '.\\private$\\http-a' }, TOKEN);
    expect(created).toMatchObject({
      status: 200,
      body: { ok: true, value: { path: '.\\private$\\http-a', transactional: false } },
    });
    expect(await post(server.url, 'queueCreate', { path: '.\\private$\\http-a' }, TOKEN)).toMatchObject({
      status: 409,
      body: { error: { code: 'QUEUE_EXISTS' } },
    });
    expect(await post(server.url, 'queueShow', { path: '.\\private$\\none' }, TOKEN)).toMatchObject({
      status: 404,
      body: { ok: false, error: { code: 'QUEUE_NOT_FOUND' } },
    });
    expect(await post(server.url, 'noSuchOp', {}, TOKEN)).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 'INVALID_PARAMETER' } },
    });
    expect(await post(server.url, 'queueShow', '{not json', TOKEN)).toMatchObject({
      status: 400,
      body: { ok: false, error: { code: 'INVALID_PARAMETER' } },
    });
    expect(await post(server.url, 'receive', { path: '.\\private$\\http-a', timeoutMs: 0 }, TOKEN)).toMatchObject({
      status: 408,
      body: { error: { code: 'IO_TIMEOUT' } },
    });
  });

  it('takes an empty body as the empty input', async () => {
    const response = await fetch(`${server.url}/api/v1/serviceStatus`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    expect(await response.json()).toMatchObject({ ok: true, value: { name: 'HTTPTEST' } });
  });

  it('lets an oversize message reach the engine (INSUFFICIENT_RESOURCES), not die in the transport', async () => {
    await post(server.url, 'queueCreate', { path: '.\\private$\\http-big' }, TOKEN);
    const body = 'x'.repeat(5 * 1024 * 1024);
    const result = await post(server.url, 'send', { path: '.\\private$\\http-big', message: { body } }, TOKEN);
    expect(result).toMatchObject({
      status: 413,
      body: {
        ok: false,
        error: { code: 'INSUFFICIENT_RESOURCES', message: expect.stringContaining('MaxMessageSize') },
      },
    });
  });

  it('stops a long-polling receive when its client disconnects, so the message is not taken for nobody', async () => {
    const path = '.\\private$\\http-poll';
    await post(server.url, 'queueCreate', { path }, TOKEN);
    const aborter = new AbortController();
    const polling = fetch(`${server.url}/api/v1/receive`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path, timeoutMs: 10_000 }),
      signal: aborter.signal,
    }).catch((error: Error) => error.name);
    await new Promise((r) => setTimeout(r, 200));
    aborter.abort();
    expect(await polling).toBe('AbortError');
    await new Promise((r) => setTimeout(r, 200));
    await post(server.url, 'send', { path, message: { body: 'kept' } }, TOKEN);
    const shown = await post(server.url, 'queueShow', { path }, TOKEN);
    expect(shown.body).toMatchObject({ ok: true, value: { messageCount: 1 } });
  });

  it('never takes the WebSocket token from the URL; takes it from the first frame', async () => {
    await expect(openSocket(server.url, `?token=${TOKEN}`)).rejects.toThrow(/401/);
    const { ws, next } = await openSocket(server.url, '?');
    ws.send(JSON.stringify({ type: 'auth', token: TOKEN }));
    ws.send(JSON.stringify({ type: 'call', id: 1, op: 'serviceStatus', input: {} }));
    expect(await next((f) => f.type === 'ready')).toEqual({ type: 'ready' });
    expect(await next(resultOf(1))).toMatchObject({ type: 'result', ok: true, value: { name: 'HTTPTEST' } });
    ws.close();
  });

  it('keeps many WebSocket calls in flight: receives asked first are answered by the sends that follow them', async () => {
    const path = '.\\private$\\ws-flight';
    await post(server.url, 'queueCreate', { path }, TOKEN);
    const { ws, frames, next } = await openSocket(server.url);
    ws.send(JSON.stringify({ type: 'call', id: 1, op: 'receive', input: { path, timeoutMs: 5_000 } }));
    ws.send(JSON.stringify({ type: 'call', id: 2, op: 'receive', input: { path, timeoutMs: 5_000 } }));
    ws.send(JSON.stringify({ type: 'call', id: 3, op: 'send', input: { path, message: { body: 'one' } } }));
    ws.send(JSON.stringify({ type: 'call', id: 4, op: 'send', input: { path, message: { body: 'two' } } }));
    const [r1, r2] = await Promise.all([next(resultOf(1)), next(resultOf(2))]);
    await Promise.all([next(resultOf(3)), next(resultOf(4))]);
    expect(frames.flatMap((f) => (f.type === 'result' ? [f.id] : [])).sort()).toEqual([1, 2, 3, 4]);
    const bodies = [r1, r2].map((r) => operations.receive.output.parse(valueOf(r))?.body);
    expect(bodies.sort()).toEqual(['one', 'two']);
    ws.close();
  });

  it('sends what leaves in one turn as one frames frame to a caller that asks for it, frame by frame to one that does not', async () => {
    for (const batchFrames of [true, undefined]) {
      const path = `.\\private$\\ws-frames-${String(batchFrames)}`;
      await post(server.url, 'queueCreate', { path }, TOKEN);
      const bodies = ['m1', 'm2', 'm3', 'm4', 'm5'];
      await post(server.url, 'sendBatch', { messages: bodies.map((body) => ({ path, message: { body } })) }, TOKEN);
      const { ws, frames } = await openSocket(server.url);
      ws.send(JSON.stringify({ type: 'call', id: 9, op: 'consume', input: { path }, batchFrames }));
      ws.send(JSON.stringify({ type: 'credit', id: 9, count: 5 }));
      const unwrapped = (): ServerFrame[] =>
        frames.flatMap((f) => (f.type === 'frames' ? f.frames.map((inner) => serverFrameSchema.parse(inner)) : [f]));
      const items = (): unknown[] => unwrapped().flatMap((f) => (f.type === 'item' ? [f.value] : []));
      const deadline = Date.now() + 10_000;
      while (items().length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // R-O1: in receive order either way; the five were ready together, so they went as one stream round.
      expect(items().map((m) => (m as { body: string }).body)).toEqual(bodies);
      expect(frames.map((f) => f.type)).toEqual(batchFrames ? ['frames'] : ['item', 'item', 'item', 'item', 'item']);
      ws.close();
    }
  });

  it('answers a malformed call with its id, and sends every engine event to subscribers', async () => {
    const { ws, next } = await openSocket(server.url);
    ws.send(JSON.stringify({ type: 'call', id: 9, op: 42 }));
    expect(await next(resultOf(9))).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    ws.send(JSON.stringify({ type: 'subscribe' }));
    ws.send(JSON.stringify({ type: 'call', id: 10, op: 'queueCreate', input: { path: '.\\private$\\ws-events' } }));
    await next(resultOf(10));
    expect(await next((f) => f.type === 'event' && eventSchema.parse(f.event).type === 'queueCreated')).toMatchObject({
      event: { path: expect.stringMatching(/ws-events$/i) },
    });
    ws.close();
  });

  it('aborts the transactions of a WebSocket connection when it closes', async () => {
    const path = '.\\private$\\ws-tx';
    await post(server.url, 'queueCreate', { path, transactional: true }, TOKEN);
    const { ws, next } = await openSocket(server.url);
    ws.send(JSON.stringify({ type: 'call', id: 1, op: 'transactionBegin', input: {} }));
    const { transaction } = operations.transactionBegin.output.parse(valueOf(await next(resultOf(1))));
    ws.send(
      JSON.stringify({
        type: 'call',
        id: 2,
        op: 'send',
        input: { path, message: { body: 'in tx' }, transaction },
      }),
    );
    expect(await next(resultOf(2))).toMatchObject({ ok: true });
    expect(host.transactions.size).toBe(1);
    ws.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(host.transactions.size).toBe(0);
    const commit = await post(server.url, 'transactionCommit', { transaction }, TOKEN);
    expect(commit.body).toMatchObject({ ok: false });
    expect((await post(server.url, 'queueShow', { path }, TOKEN)).body).toMatchObject({ value: { messageCount: 0 } });
  });

  it('serves the fallback page with a strict CSP when the console is not built', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await (await fetch(`${server.url}/fallback.js`)).text()).not.toContain('?token=');
    expect(await page.text()).toContain('<script src="/fallback.js">');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`ws://${new URL(server.url).host}`);
    // Its style is a file of its own too: the policy allows no inline style.
    expect(csp).not.toContain('unsafe-inline');
    const style = await fetch(`${server.url}/fallback.css`);
    expect(style.headers.get('content-type')).toContain('text/css');
    expect(await style.text()).toContain('font-variant-numeric');
    const script = await (await fetch(`${server.url}/fallback.js`)).text();
    expect(script).toContain("call('queueList')");
    // It ships without a build step, so at least make sure it parses.
    expect(() => new Script(script)).not.toThrow();
  });

  it('refuses pages of other origins, preflights included, and never answers Access-Control-Allow-Origin: *', async () => {
    const preflight = await fetch(`${server.url}/api/v1/queueList`, {
      method: 'OPTIONS',
      headers: { origin: 'http://10.1.2.3:8185', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await fetch(`${server.url}/api/v1/queueList`, {
      method: 'POST',
      headers: { origin: 'http://10.1.2.3:8185', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: 'ACCESS_DENIED' } });
    const own = await fetch(`${server.url}/api/v1/queueList`, {
      method: 'POST',
      headers: { origin: server.url, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    });
    expect(own.status).toBe(200);
  });

  it('calls the stop listener only after the serviceStop reply is sent', async () => {
    const before = stopRequests;
    expect(await post(server.url, 'serviceStop', {}, TOKEN)).toMatchObject({
      status: 200,
      body: { ok: true, value: {} },
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(stopRequests).toBe(before + 1);
  });
});

describe('console static build', () => {
  it('serves dist/renderer when it exists, with the CSP', async () => {
    const temp = tempDataDir();
    const consoleDir = join(temp.dir, 'renderer');
    mkdirSync(consoleDir);
    writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    const host = ServiceHost.open({ dataDir: join(temp.dir, 'data') });
    const server = await startHttpServer(host, { listen: { host: '127.0.0.1', port: 0 }, token: TOKEN, consoleDir });
    try {
      const page = await fetch(`${server.url}/`);
      expect(await page.text()).toContain('<title>console</title>');
      // The console's one policy; the full console may connect to other computers' services.
      expect(page.headers.get('content-security-policy')).toBe(consoleContentSecurityPolicy(ANY_SERVICE_CONNECT_SRC));
    } finally {
      await server.close();
      await host.close();
      temp.cleanup();
    }
  });
});

describe('consoles served elsewhere (--allow-origin)', () => {
  it('get CORS headers naming their origin, and their preflights an answer', async () => {
    const temp = tempDataDir();
    const host = ServiceHost.open({ dataDir: temp.dir });
    const other = 'http://127.0.0.1:8185';
    const server = await startHttpServer(host, {
      listen: { host: '127.0.0.1', port: 0 },
      token: TOKEN,
      consoleDir: null,
      allowedOrigins: [other],
    });
    try {
      const preflight = await fetch(`${server.url}/api/v1/queueList`, {
        method: 'OPTIONS',
        headers: { origin: other, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(other);
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      const call = await fetch(`${server.url}/api/v1/queueList`, {
        method: 'POST',
        headers: { origin: other, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      });
      expect(call.status).toBe(200);
      expect(call.headers.get('access-control-allow-origin')).toBe(other);
    } finally {
      await server.close();
      await host.close();
      temp.cleanup();
    }
  });
});
