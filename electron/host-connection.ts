/** The main-process side of the utility process: calls in, envelopes and events out. */
import type { Envelope, QkEvent } from '@qk/api';
import type { FromHost, HostApi, ToHost } from './host-protocol.js';

/** The part of Electron's UtilityProcess used here. */
export interface ChildLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

/** A connected host with its identity. */
export interface HostConnection extends HostApi {
  readonly name: string;
  readonly id: string;
  readonly url: string;
}

const STOP_TIMEOUT_MS = 10_000;

/** Waits for the child's ready message; rejects if it fails or exits first. */
export function connectHost(child: ChildLike): Promise<HostConnection> {
  const pending = new Map<number, (envelope: Envelope<unknown>) => void>();
  const listeners = new Set<(event: QkEvent) => void>();
  let nextId = 1;
  let exited = false;
  let onStopped: (() => void) | null = null;

  const failAll = (message: string) => {
    for (const [id, resolve] of pending) {
      pending.delete(id);
      resolve({ ok: false, error: { code: 'SERVICE_NOT_AVAILABLE', message } });
    }
  };

  return new Promise((resolve, reject) => {
    child.on('exit', (code: number) => {
      exited = true;
      failAll(`The Message Queuing service process ended (exit code ${code}).`);
      onStopped?.();
      reject(new Error(`The service process exited with code ${code} before it was ready.`));
    });
    child.on('message', (raw: unknown) => {
      const message = raw as FromHost;
      switch (message?.type) {
        case 'ready':
          resolve({
            name: message.name,
            id: message.id,
            url: message.url,
            call(op, input) {
              if (exited)
                return Promise.resolve({
                  ok: false,
                  error: {
                    code: 'SERVICE_NOT_AVAILABLE',
                    message: 'The Message Queuing service process is not running.',
                  },
                });
              const id = nextId++;
              return new Promise((done) => {
                pending.set(id, done);
                child.postMessage({ type: 'call', id, op, input } satisfies ToHost);
              });
            },
            subscribe(listener) {
              listeners.add(listener);
              return () => {
                listeners.delete(listener);
              };
            },
            stop() {
              if (exited) return Promise.resolve();
              return new Promise<void>((done) => {
                const timer = setTimeout(() => {
                  child.kill();
                  done();
                }, STOP_TIMEOUT_MS);
                onStopped = () => {
                  clearTimeout(timer);
                  done();
                };
                child.postMessage({ type: 'stop' } satisfies ToHost);
              });
            },
          });
          return;
        case 'failed':
          reject(new Error(message.message));
          return;
        case 'result':
          pending.get(message.id)?.(message.envelope);
          pending.delete(message.id);
          return;
        case 'event':
          for (const listener of [...listeners]) listener(message.event);
          return;
        case 'stopped':
          onStopped?.();
          return;
        default:
      }
    });
  });
}
