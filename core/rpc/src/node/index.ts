/** The Node-only part of core/rpc (`@qk/rpc/node`): transports over Node's sockets. The browser never loads it. */
export { FRAMES_PER_WRITE, wsTransport } from './ws-transport.js';
