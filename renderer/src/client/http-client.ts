/**
 * ConsoleClient over HTTP and WebSocket (browser mode and remote computers). The socket speaks core/rpc's
 * call protocol: the token goes in its first frame (a browser cannot set headers on a WebSocket, and the
 * token never goes into a URL). Calls travel on the socket while it is open (no CORS needed for a remote
 * service) and fall back to `POST /api/v1/<op>`; events arrive on the same socket, which reconnects with backoff.
 */
import { API_PREFIX, WEBSOCKET_PATH, eventSchema, operationNames, type ApiClient, type OperationName } from '@qk/api';
import type { Envelope } from '@qk/model';
import { RpcClient, type FrameTransport } from '@qk/rpc';
import { ApiError, unwrap, type ConsoleClient, type EventListener } from './console-client.js';

/** Where the service is and how to prove we may talk to it. */
export interface HttpClientOptions {
  /** `http://127.0.0.1:PORT` (no trailing slash needed). */
  baseUrl: string;
  token: string;
  /** Injected in unit tests. */
  WebSocketImpl?: typeof WebSocket;
  fetchImpl?: typeof fetch;
  /**
   * `http`: calls are `POST /api/v1/<op>` and the socket carries only events (same-origin browser mode,
   * where a dropped socket cannot fail a call). `ws`: calls go on the socket too (a remote service, which
   * would need CORS for fetch). Default: http for the page's own origin, ws otherwise.
   */
  calls?: 'http' | 'ws';
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;
const OPEN = 1;

/** A browser WebSocket as the protocol's transport. Browsers cannot pause a socket: the console reads fast. */
function browserTransport(ws: WebSocket): FrameTransport {
  return {
    send(text) {
      if (ws.readyState !== OPEN) return Promise.reject(new Error('the WebSocket is not open'));
      ws.send(text);
      return Promise.resolve();
    },
    bufferedBytes: () => ws.bufferedAmount,
    setReading: () => undefined,
    close: () => ws.close(),
  };
}

/** Builds the client; the socket opens on the first call or subscription. */
export function createHttpClient(options: HttpClientOptions): ConsoleClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const WS = options.WebSocketImpl ?? globalThis.WebSocket;
  const doFetch = options.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const listeners = new Set<EventListener>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const notifyConnection = (connected: boolean) => {
    for (const listener of [...connectionListeners]) listener(connected);
  };
  const callsOverSocket = (options.calls ?? (globalThis.location?.origin === base ? 'http' : 'ws')) === 'ws';
  let socket: WebSocket | null = null;
  let rpc: RpcClient | null = null;
  let open = false;
  let closed = false;
  let reconnectDelay = RECONNECT_MIN_MS;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let unsubscribeRpc: (() => void) | null = null;
  const waiters: Array<(ok: boolean) => void> = [];

  const wsUrl = `${base.replace(/^http/, 'ws')}${WEBSOCKET_PATH}`;

  const dispatch = (raw: unknown): void => {
    const parsed = eventSchema.safeParse(raw);
    // An event this console does not know (a newer service) is skipped rather than mis-read.
    if (!parsed.success) return;
    for (const listener of [...listeners]) listener(parsed.data);
  };

  function connect(): void {
    if (closed || socket) return;
    let ws: WebSocket;
    try {
      ws = new WS(wsUrl);
    } catch {
      settleWaiters(false);
      scheduleReconnect();
      return;
    }
    socket = ws;
    let connection: RpcClient | null = null;
    ws.onopen = () => {
      open = true;
      // Its first frame is the auth frame; every frame after it is read as authenticated.
      connection = new RpcClient(browserTransport(ws), { token: options.token });
      rpc = connection;
      reconnectDelay = RECONNECT_MIN_MS;
      connection.onEventsLost(() => {
        // Events were dropped while this page was behind: say so as a reconnection, which reloads the view.
        notifyConnection(false);
        notifyConnection(true);
      });
      if (listeners.size > 0) unsubscribeRpc = connection.subscribe(dispatch);
      notifyConnection(true);
      settleWaiters(true);
    };
    ws.onmessage = (message) => connection?.frame(String(message.data));
    ws.onclose = () => {
      const wasOpen = open;
      open = false;
      socket = null;
      rpc = null;
      unsubscribeRpc = null;
      connection?.closed('The connection to the service was lost during the call.');
      settleWaiters(false);
      if (wasOpen) notifyConnection(false);
      scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and does the work.
    };
  }

  function settleWaiters(ok: boolean): void {
    for (const waiter of waiters.splice(0)) waiter(ok);
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer || listeners.size === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, reconnectDelay);
    reconnectDelay = Math.min(RECONNECT_MAX_MS, reconnectDelay * 2);
  }

  /** Waits for the socket when it is connecting; false means "use HTTP". */
  function socketReady(): Promise<boolean> {
    if (open) return Promise.resolve(true);
    if (closed) return Promise.resolve(false);
    if (!socket) connect();
    if (!socket) return Promise.resolve(false);
    return new Promise((resolve) => waiters.push(resolve));
  }

  async function callOverHttp(op: OperationName, input: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await doFetch(`${base}${API_PREFIX}/${op}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: JSON.stringify(input ?? {}),
      });
    } catch (error) {
      throw new ApiError({
        code: 'SERVICE_NOT_AVAILABLE',
        message: `The service at ${base} cannot be reached (${String(error)}).`,
      });
    }
    let envelope: Envelope<unknown>;
    try {
      envelope = (await response.json()) as Envelope<unknown>;
    } catch {
      throw new ApiError({
        code: 'INTERNAL',
        message: `The service answered HTTP ${response.status} without a JSON envelope.`,
      });
    }
    return unwrap(envelope);
  }

  async function call(op: OperationName, input: unknown): Promise<unknown> {
    if (closed)
      throw new ApiError({ code: 'SERVICE_NOT_AVAILABLE', message: 'The connection to the service is closed.' });
    if (callsOverSocket && (await socketReady()) && rpc) return unwrap(await rpc.call(op, input ?? {}));
    return callOverHttp(op, input);
  }

  const api = {} as Record<OperationName, (input: unknown) => Promise<unknown>>;
  for (const name of operationNames) api[name] = (input: unknown) => call(name, input);

  return {
    ...(api as unknown as ApiClient),
    subscribe(listener: EventListener) {
      listeners.add(listener);
      if (rpc && listeners.size === 1) unsubscribeRpc = rpc.subscribe(dispatch);
      else connect();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          unsubscribeRpc?.();
          unsubscribeRpc = null;
        }
      };
    },
    onConnectionChange(listener) {
      connectionListeners.add(listener);
      return () => {
        connectionListeners.delete(listener);
      };
    },
    close() {
      closed = true;
      listeners.clear();
      connectionListeners.clear();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      socket?.close();
      socket = null;
    },
  };
}
