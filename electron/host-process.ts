/**
 * The utility-process side: opens the service on the data folder (IPC calls plus the loopback HTTP
 * server, so `qk --data DIR` and other consoles reach the same queue manager) and answers the main
 * process. Every engine operation runs here, so a purge or a browse of a huge queue never blocks the
 * main process's event loop (window, menus, IPC stay responsive).
 */
import type { Envelope, QkEvent } from '@qk/api';
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
  call(op: string, input: unknown): Promise<Envelope<unknown>>;
  subscribe(listener: (event: QkEvent) => void): () => void;
  stop(): Promise<void>;
}

/** Serves the main process over `port` until told to stop; `exit` ends the process afterwards. */
export async function runHostProcess(
  port: ParentPortLike,
  open: () => Promise<OpenedService>,
  exit: (code: number) => void,
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
  const unsubscribe = service.subscribe((event) => send({ type: 'event', event }));
  port.on('message', ({ data }) => {
    const message = data as ToHost;
    if (message?.type === 'call' && typeof message.id === 'number' && typeof message.op === 'string') {
      void service.call(message.op, message.input).then(
        (envelope) => send({ type: 'result', id: message.id, envelope }),
        (error: unknown) =>
          send({
            type: 'result',
            id: message.id,
            envelope: { ok: false, error: { code: 'INTERNAL', message: String(error) } },
          }),
      );
    } else if (message?.type === 'stop') {
      unsubscribe();
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
