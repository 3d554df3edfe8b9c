/**
 * Sends made while others wait for their replies leave together: every `send` a client makes in the same
 * turn of the event loop goes to the service as one `sendEach` call, whose result answers each send as its
 * own call would (issue 11). An application with many sends in flight — an async send loop, a pool of
 * producers on one connection — pays the frame, the dispatch and the reply once per turn instead of once per
 * message; a lone send, or one with its own AbortSignal, still goes as a plain `send`.
 *
 * Wire order is kept: a queued send leaves before any later call of the same client (the transport flushes
 * first), so a commit or receive made after a send reaches the service after it.
 */
import { QkError, type Envelope } from '@qk/model';

/** At most this many sends in one call (well under the service's Bounds.SEND_EACH). */
export const MAX_SENDS_PER_CALL = 100;
/** A send whose text fields are longer than this goes on its own, and a call stops growing at it. */
const MAX_COALESCED_CHARS = 256 * 1024;

type Call = (op: string, input: unknown) => Promise<unknown>;

interface Queued {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class SendCoalescer {
  #queued: Queued[] = [];
  #chars = 0;
  #scheduled = false;
  /** False once the service said it has no sendEach (an older one): every send goes alone from then on. */
  #serviceHasSendEach = true;

  constructor(private readonly call: Call) {}

  /** Queues one send; it leaves with the others of this turn. */
  send(input: unknown): Promise<unknown> {
    const chars = textLength(input);
    if (!this.#serviceHasSendEach || chars > MAX_COALESCED_CHARS) {
      this.flush();
      return this.call('send', input);
    }
    if (this.#chars + chars > MAX_COALESCED_CHARS) this.flush();
    return new Promise((resolve, reject) => {
      this.#queued.push({ input, resolve, reject });
      this.#chars += chars;
      if (this.#queued.length >= MAX_SENDS_PER_CALL) this.flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        // After the promise reactions already queued: sends made by the replies of one reply frame go together.
        queueMicrotask(() => {
          this.#scheduled = false;
          this.flush();
        });
      }
    });
  }

  /** Sends what is queued now (before another call, so the service sees the client's calls in order). */
  flush(): void {
    const queued = this.#queued;
    if (queued.length === 0) return;
    this.#queued = [];
    this.#chars = 0;
    const [only] = queued;
    if (queued.length === 1 && only) {
      this.call('send', only.input).then(only.resolve, only.reject);
      return;
    }
    this.call('sendEach', { sends: queued.map((q) => q.input) }).then(
      (output) => this.#answer(queued, output),
      (error: unknown) => this.#failed(queued, error),
    );
  }

  #answer(queued: Queued[], output: unknown): void {
    const results = (output as { results?: Envelope<unknown>[] } | undefined)?.results;
    if (!Array.isArray(results) || results.length !== queued.length) {
      const error = new QkError('INTERNAL', 'The service answered a sendEach with a result per send missing.');
      for (const q of queued) q.reject(error);
      return;
    }
    queued.forEach((q, i) => {
      const result = results[i] as Envelope<unknown>;
      if (result.ok) q.resolve(result.value);
      else q.reject(new QkError(result.error.code, result.error.message));
    });
  }

  #failed(queued: Queued[], error: unknown): void {
    // An older service refuses the whole call before sending anything: each send goes again on its own.
    if (isUnknownOperation(error)) {
      this.#serviceHasSendEach = false;
      for (const q of queued) this.call('send', q.input).then(q.resolve, q.reject);
      return;
    }
    // The call failed as a whole (the connection closed): each send learns why, as it would have alone.
    for (const q of queued) q.reject(error);
  }
}

function isUnknownOperation(error: unknown): boolean {
  return (
    error instanceof QkError &&
    error.code === 'INVALID_PARAMETER' &&
    error.message.startsWith("Unknown operation 'sendEach'")
  );
}

/** The characters of a send's body and label: what makes a call large (the rest is a few hundred bytes). */
function textLength(input: unknown): number {
  const message = (input as { message?: Record<string, unknown> } | undefined)?.message;
  if (!message) return 0;
  let chars = 0;
  for (const key of ['body', 'bodyBase64', 'label']) {
    const value = message[key];
    if (typeof value === 'string') chars += value.length;
  }
  return chars;
}
