/** The main-process side of the utility process: core/rpc's call protocol over the child's message port. */
import { eventSchema } from '@qk/api';
import { RpcClient, type FrameTransport } from '@qk/rpc';
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

function childTransport(child: ChildLike): FrameTransport {
  return {
    send(text) {
      child.postMessage({ type: 'frame', text } satisfies ToHost);
      return Promise.resolve();
    },
    bufferedBytes: () => 0,
    setReading: () => undefined,
    close: () => undefined,
  };
}

/** Waits for the child's ready message; rejects if it fails or exits first. */
export function connectHost(child: ChildLike): Promise<HostConnection> {
  const rpc = new RpcClient(childTransport(child));
  let exited = false;
  let onStopped: (() => void) | null = null;

  return new Promise((resolve, reject) => {
    child.on('exit', (code: number) => {
      exited = true;
      rpc.closed(`The Message Queuing service process ended (exit code ${code}).`);
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
            call: (op, input, signal) => rpc.call(op, input, signal),
            subscribe(listener) {
              // Checked like any event that crosses a process: one the contract does not know is a bug, said so.
              return rpc.subscribe((raw) => {
                const parsed = eventSchema.safeParse(raw);
                if (parsed.success) listener(parsed.data);
                else console.error('Queuekeeper: the service process sent an event the contract does not know:', raw);
              });
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
        case 'frame':
          if (typeof message.text === 'string') rpc.frame(message.text);
          return;
        case 'stopped':
          rpc.closed('The Message Queuing service stopped.');
          onStopped?.();
          return;
        default:
      }
    });
  });
}
