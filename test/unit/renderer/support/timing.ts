/** Waiting helpers for tests of asynchronous store code. */

/** Lets queued promise callbacks and zero-delay timers run. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i += 1) await new Promise((r) => setTimeout(r, 0));
}

/** Waits until `check` passes (events reach the console on the engine's 100 ms tick), or throws its last error. */
export async function eventually(check: () => void, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
