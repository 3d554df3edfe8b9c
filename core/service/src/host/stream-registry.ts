/**
 * Streaming receives under way, by connection and call id: a transactional stream's commit and abort name it
 * by the id of its `consume` call, and only on the connection that opened it.
 */
import { QkError } from '@qk/model';
import type { Consumption } from '@qk/engine';

export class StreamRegistry {
  readonly #streams = new Map<string, Consumption>();

  static #key(connectionId: string, callId: number): string {
    return `${connectionId}\u0000${callId}`;
  }

  /** Registers a stream for as long as `done` has not settled. */
  track(connectionId: string, callId: number, stream: Consumption): void {
    const key = StreamRegistry.#key(connectionId, callId);
    this.#streams.set(key, stream);
    const forget = (): void => {
      if (this.#streams.get(key) === stream) this.#streams.delete(key);
    };
    stream.done.then(forget, forget);
  }

  /** The stream of this connection with that call id; INVALID_HANDLE when there is none (any more). */
  get(connectionId: string | undefined, callId: number): Consumption {
    const stream =
      connectionId === undefined ? undefined : this.#streams.get(StreamRegistry.#key(connectionId, callId));
    if (!stream)
      throw new QkError(
        'INVALID_HANDLE',
        `There is no stream ${callId} on this connection: name a consume call of this connection that is still running.`,
      );
    return stream;
  }

  get size(): number {
    return this.#streams.size;
  }
}
