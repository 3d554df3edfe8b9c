export { Store } from './store.js';
export { STORE_FILE, storeOpenError } from './open-database.js';
export { EXPIRY_BATCH } from './message-store.js';
export { beforeInOrder, type ReadyKey, type ReadyOrder } from './ready-order.js';
export { LATEST_SCHEMA_VERSION } from './migrations.js';
export type * from './records.js';
export type { NewQueue } from './queue-store.js';
export { takeExclusiveLock, type ExclusiveLock } from './exclusive-lock.js';
export { isDiskFullError, SPACE_RESERVE_FILE } from './space-reserve.js';
