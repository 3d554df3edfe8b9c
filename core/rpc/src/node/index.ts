/** The Node-only part of core/rpc (`@qk/rpc/node`): transports over Node's sockets. The browser never loads it. */
export { wsTransport } from './ws-transport.js';
