export * from './constants.js';
export * from './errors.js';
export * from './envelope.js';
export * from './names.js';
export * from './message-id.js';
export * from './types.js';
export * from './settings.js';
export * from './network.js';
