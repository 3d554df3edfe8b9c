/**
 * The utility-process side: opens the service on the data folder (IPC calls plus the loopback HTTP
 * server, so `qk --data DIR` and other consoles reach the same queue manager) and serves the main process
 * with core/rpc's call protocol over the parent port. Every engine operation runs here, so a purge or a
 * browse of a huge queue never blocks the main process's event loop (window, menus, IPC stay responsive).
 */
import type { Envelope, QkEvent } from '@qk/api';
import { serveRpc, type FrameTransport, type RpcCallContext, type RpcLogger } from '@qk/rpc';
import type { FromHost, ToHost } from './host-protocol.js';

/** The part of Electron's `process.parentPort` used here. */
export interface ParentPortLike {
  on(event: 'message', listener: (message: { data: unknown }) => void): unknown;
  postMessage(message: unknown): void;
}

/** The opened service, as this module needs it (runService's result in production). */
export interface OpenedService {
  name: string;
  id: string;
  url: string;
  /** Runs one call; `context.deliver` hands a receive's reply over before its removal commits. */
  call(op: string, input: unknown, context: RpcCallContext): Promise<Envelope<unknown>>;
  subscribe(listener: (event: QkEvent) => void): () => void;
  /** Calls whose reply carries the messages they take. */
  isDestructive?(op: string): boolean;
  stop(): Promise<void>;
}

/** A process port as the protocol's transport: posting is handing over (nothing to pause or to buffer). */
function portTransport(post: (message: FromHost) => void): FrameTransport {
  return {
    send(text) {
      post({ type: 'frame', text });
      return Promise.resolve();
    },
    bufferedBytes: () => 0,
    setReading: () => undefined,
    close: () => undefined,
  };
}

/** Serves the main process over `port` until told to stop; `exit` ends the process afterwards. */
export async function runHostProcess(
  port: ParentPortLike,
  open: () => Promise<OpenedService>,
  exit: (code: number) => void,
  logger?: RpcLogger,
): Promise<void> {
  const send = (message: FromHost) => port.postMessage(message);
  let service: OpenedService;
  try {
    service = await open();
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    exit(1);
    return;
  }
  const connection = serveRpc(portTransport(send), {
    logger,
    connectionId: 'electron',
    handler: {
      call: (op, input, context) => service.call(op, input, context),
      subscribe: (listener) => service.subscribe(listener),
      isDestructive: (op) => service.isDestructive?.(op) ?? false,
    },
  });
  port.on('message', ({ data }) => {
    const message = data as ToHost;
    if (message?.type === 'frame' && typeof message.text === 'string') {
      connection.frame(message.text);
    } else if (message?.type === 'stop') {
      connection.closed('the main process asked the service to stop');
      const stopped = (code: number): void => {
        send({ type: 'stopped' });
        exit(code);
      };
      service.stop().then(
        () => stopped(0),
        (error: unknown) => {
          console.error('Queuekeeper: the service did not stop cleanly:', error);
          stopped(1);
        },
      );
    }
  });
  send({ type: 'ready', name: service.name, id: service.id, url: service.url });
}
