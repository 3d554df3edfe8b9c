export * from './schemas.js';
export * from './operations.js';
export * from './events.js';
export * from './envelope.js';
export * from './wire.js';
export * from './network-operations.js';
export * from './bridge.js';
export * from './console-policy.js';
