/**
 * Issue 7, item 1 — nobody let in. Every finding of the issue's "Why" against a real service on a real socket:
 * the token is checked on the route the router matched, however the path was spelled; a foreign Host (DNS
 * rebinding) or Origin (another web page) is refused; operations need a JSON content type, so no form or
 * plain request from a page can reach one; the token is never taken from a URL; oversized and deeply
 * nested bodies are refused with a 4xx and change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { DrillService } from '../support/service-process.js';
import { authorized, rawRequest, valueText } from './raw-http.js';

const service = new DrillService();
let url = '';
let token = '';
let port = '';
let startedTime = '';

/** The service answers and has not been restarted or stopped by anything a test sent. */
async function stillUntouched(): Promise<void> {
  const status = await rawRequest(url, { path: '/api/v1/serviceStatus', headers: authorized(token), body: '{}' });
  expect(status.status).toBe(200);
  expect(valueText(status, 'startedTime')).toBe(startedTime);
}

beforeAll(async () => {
  await service.start();
  url = service.url;
  token = service.token;
  port = new URL(url).port;
  await service.api().value('queueCreate', { path: '.\\private$\\secret' });
  await service.api().value('send', { path: '.\\private$\\secret', message: { body: 'for the owner only' } });
  startedTime = (await service.api().value<{ startedTime: string }>('serviceStatus', {})).startedTime;
});
afterAll(() => service.dispose());

describe('the token is checked on the matched route, not on the spelling of the path', () => {
  const spellings = [
    '/%61pi/v1/browse',
    '/api/v%31/browse',
    '/api/v1/%62rowse',
    '/%2561pi/v1/browse',
    '//api/v1/browse',
    '/api//v1/browse',
    '/API/v1/browse',
    '/Api/V1/browse',
    '/api/v1/./browse',
    '/api/v1/../v1/browse',
    '/api/v1/browse/',
    '/api/v1/browse?x=1',
    '/api/v1/browse;x',
    '/api/v1/browse%00',
    '/api/v1/browse#frag',
  ];
  test.each(spellings)('%s without a token reads nothing', async (path) => {
    const answer = await rawRequest(url, {
      path,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '.\\private$\\secret', includeBody: true }),
    });
    expect(answer.status, `${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(
      400,
    );
    expect(answer.status).toBeLessThan(500);
    expect(answer.text).not.toContain('for the owner only');
  });

  test('encoded spellings of serviceStop and serviceRestart without a token stop nothing', async () => {
    for (const path of ['/%61pi/v1/serviceStop', '/api/v%31/serviceRestart', '/api/v1/%73erviceStop']) {
      const answer = await rawRequest(url, { path, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect([401, 404]).toContain(answer.status);
    }
    await stillUntouched();
  });

  test('no token and a wrong token are 401 UNAUTHORIZED with a Bearer challenge', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      { 'content-type': 'application/json', authorization: `Bearer ${'0'.repeat(64)}` },
      { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`qk:${token}`).toString('base64')}` },
      { 'content-type': 'application/json', authorization: token },
    ]) {
      const answer = await rawRequest(url, { path: '/api/v1/queueList', headers, body: '{}' });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } });
      expect(answer.headers['www-authenticate']).toBe('Bearer');
    }
  });

  test('a token in the query string is not a token', async () => {
    const answer = await rawRequest(url, {
      path: `/api/v1/queueList?token=${token}`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
  });
});

describe('only requests naming this service, from its own pages', () => {
  test('a foreign Host (DNS rebinding) is refused even with the token', async () => {
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, 'localhost.:1', `[::2]:${port}`]) {
      const answer = await rawRequest(url, {
        path: '/api/v1/queueList',
        headers: authorized(token, { host }),
        body: '{}',
      });
      expect(answer.status, host).toBe(403);
      expect(answer.body).toMatchObject({ error: { code: 'ACCESS_DENIED' } });
    }
    const page = await rawRequest(url, { method: 'GET', path: '/', headers: { host: `evil.example:${port}` } });
    expect(page.status).toBe(403);
  });

  test('a request without a Host is refused; loopback names are accepted', async () => {
    // Node's HTTP server answers a request without Host with 400 before any route: refused either way.
    const hostless = await rawRequest(url, {
      path: '/api/v1/queueList',
      headers: authorized(token),
      body: '{}',
      noHost: true,
    });
    expect([400, 403]).toContain(hostless.status);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `console.localhost:${port}`]) {
      const answer = await rawRequest(url, {
        path: '/api/v1/queueList',
        headers: authorized(token, { host }),
        body: '{}',
      });
      expect(answer.status, host).toBe(200);
    }
  });

  test('a foreign Origin is refused with the token, preflights included; no Access-Control-Allow-Origin: *', async () => {
    for (const origin of [
      'http://evil.example',
      'null',
      `http://127.0.0.1:${Number(port) + 1}`,
      `https://127.0.0.1:${port}`,
    ]) {
      const call = await rawRequest(url, {
        path: '/api/v1/queueList',
        headers: authorized(token, { origin }),
        body: '{}',
      });
      expect(call.status, origin).toBe(403);
      expect(call.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await rawRequest(url, {
        method: 'OPTIONS',
        path: '/api/v1/serviceStop',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status, origin).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    }
    const own = await rawRequest(url, {
      path: '/api/v1/queueList',
      headers: authorized(token, { origin: url }),
      body: '{}',
    });
    expect(own.status).toBe(200);
    const electron = await rawRequest(url, {
      path: '/api/v1/queueList',
      headers: authorized(token, { origin: 'app://console' }),
      body: '{}',
    });
    expect(electron.status).toBe(200);
  });

  test('what a page can send without a preflight (no or a simple content type) never reaches an operation', async () => {
    for (const contentType of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (contentType) headers['content-type'] = contentType;
      const answer = await rawRequest(url, {
        path: '/api/v1/serviceRestart',
        headers,
        body: contentType ? '{}' : undefined,
      });
      expect(answer.status, String(contentType)).toBe(415);
      expect(answer.body).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMETER' } });
    }
    await stillUntouched();
  });
});

describe('oversized and hostile bodies', () => {
  test('a body over the request limit is a 413, and nothing changes', async () => {
    const body = JSON.stringify({ path: '.\\private$\\secret', message: { body: 'x'.repeat(17 * 1024 * 1024) } });
    const answer = await rawRequest(url, { path: '/api/v1/send', headers: authorized(token), body }).catch(
      (e: Error) => ({
        status: 413,
        body: { error: { code: 'INSUFFICIENT_RESOURCES' } },
        cut: e.message,
      }),
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: { code: 'INSUFFICIENT_RESOURCES' } });
    expect(
      (await service.api().value<{ messageCount: number }>('queueShow', { path: '.\\private$\\secret' })).messageCount,
    ).toBe(1);
  });

  test('a message over MaxMessageSize is a 4xx, not a 5xx', async () => {
    const answer = await rawRequest(url, {
      path: '/api/v1/send',
      headers: authorized(token),
      body: JSON.stringify({
        path: '.\\private$\\secret',
        message: { bodyBase64: Buffer.alloc(4_300_000).toString('base64') },
      }),
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ error: { code: 'INSUFFICIENT_RESOURCES' } });
  });

  test('deeply nested and malformed JSON are refused with a 4xx; the service stays up', async () => {
    const deep = `{"path":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const bodies = [deep, '['.repeat(500_000), '{"path":', '\u0000', '{"path":"\\ud800"}', '{"path":1e999}'];
    for (const body of bodies) {
      const answer = await rawRequest(url, { path: '/api/v1/queueShow', headers: authorized(token), body });
      expect(answer.status, body.slice(0, 30)).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    await stillUntouched();
  });
});

describe('the WebSocket', () => {
  const wsUrl = (): string => `${url.replace(/^http/, 'ws')}/api/v1/ws`;
  const upgrade = (headers: Record<string, string>, query = ''): Promise<number> =>
    new Promise((resolve) => {
      const ws = new WebSocket(`${wsUrl()}${query}`, { headers });
      ws.once('open', () => {
        ws.terminate();
        resolve(101);
      });
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      ws.once('error', () => resolve(-1));
    });

  test('takes the token from the Authorization header; a wrong one is refused at the upgrade', async () => {
    expect(await upgrade({ authorization: `Bearer ${token}` })).toBe(101);
    expect(await upgrade({ authorization: `Bearer ${'1'.repeat(64)}` })).toBe(401);
  });

  test('never from the URL, even the right one', async () => {
    expect(await upgrade({}, `?token=${token}`)).toBe(401);
  });

  test('refuses a foreign Origin or Host at the upgrade', async () => {
    expect(await upgrade({ authorization: `Bearer ${token}`, origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade({ authorization: `Bearer ${token}`, host: `evil.example:${port}` })).toBe(403);
    expect(await upgrade({ authorization: `Bearer ${token}`, origin: url })).toBe(101);
  });

  test('without a header the first frame must carry the token; anything else closes the connection unanswered', async () => {
    const session = (first: string): Promise<{ frames: unknown[]; code: number }> =>
      new Promise((resolve) => {
        const ws = new WebSocket(wsUrl());
        const frames: unknown[] = [];
        ws.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8'))));
        ws.once('open', () => {
          ws.send(first);
          ws.send(
            JSON.stringify({
              type: 'call',
              id: 1,
              op: 'browse',
              input: { path: '.\\private$\\secret', includeBody: true },
            }),
          );
          setTimeout(() => ws.close(), 1_500);
        });
        ws.once('close', (code) => resolve({ frames, code }));
      });
    const good = await session(JSON.stringify({ type: 'auth', token }));
    expect(good.frames[0]).toEqual({ type: 'ready' });
    expect(JSON.stringify(good.frames[1])).toContain('for the owner only');
    for (const first of [
      JSON.stringify({ type: 'auth', token: 'f'.repeat(64) }),
      JSON.stringify({ type: 'call', id: 0, op: 'serviceStop', input: {} }),
      'not json',
    ]) {
      const bad = await session(first);
      expect(bad.code).toBe(1008);
      expect(bad.frames).toEqual([{ type: 'error', error: { code: 'UNAUTHORIZED', message: expect.any(String) } }]);
    }
    await stillUntouched();
  });
});

describe('console sign-in', () => {
  test('a console link carries a one-time code, never the token; it opens one session', async () => {
    const link = await rawRequest(url, { path: '/console/code', headers: authorized(token), body: '{}' });
    expect(link.status).toBe(200);
    const consoleUrl = valueText(link, 'url');
    expect(consoleUrl).not.toContain(token);
    const code = consoleUrl.split('#code=')[1] as string;
    const exchange = () =>
      rawRequest(url, {
        path: '/console/session',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ code }),
      });
    const first = await exchange();
    expect(first.status).toBe(200);
    const session = valueText(first, 'token');
    expect(session).not.toBe(token);
    const call = await rawRequest(url, { path: '/api/v1/queueList', headers: authorized(session), body: '{}' });
    expect(call.status).toBe(200);
    expect((await exchange()).status).toBe(401);
  });

  test('a code is not minted without the token, nor exchanged from a foreign page', async () => {
    const noToken = await rawRequest(url, {
      path: '/console/code',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noToken.status).toBe(401);
    const link = await rawRequest(url, { path: '/console/code', headers: authorized(token), body: '{}' });
    const code = valueText(link, 'url').split('#code=')[1] as string;
    const foreign = await rawRequest(url, {
      path: '/console/session',
      headers: { 'content-type': 'application/json', origin: 'http://evil.example' },
      body: JSON.stringify({ code }),
    });
    expect(foreign.status).toBe(403);
  });
});
