/**
 * How long sessions wait (docs/network.md). The defaults suit real networks; QK_PEER_* environment variables
 * shorten them for tests and drills that cut links on purpose and cannot wait half a minute for each.
 */
function fromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  const value = text === undefined ? NaN : Number(text);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

export const timing = {
  /** A call not answered in this time means a dead link: the connection is cut and its leases go back. */
  callTimeoutMs: fromEnv('QK_PEER_CALL_TIMEOUT_MS', 30_000),
  connectTimeoutMs: fromEnv('QK_PEER_CONNECT_TIMEOUT_MS', 10_000),
  backoffFirstMs: fromEnv('QK_PEER_BACKOFF_FIRST_MS', 500),
  backoffMaxMs: fromEnv('QK_PEER_BACKOFF_MAX_MS', 30_000),
  /** A session with nothing to do for this long is closed (MSMQ's CleanupInterval, shortened). */
  idleCloseMs: fromEnv('QK_PEER_IDLE_MS', 60_000),
};
