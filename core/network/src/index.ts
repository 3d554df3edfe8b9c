/** Transport between queue managers: peer certificates, directory, routes, sessions (docs/network.md). */
export * from './certificate.js';
export { NetworkNode, type NetworkNodeOptions } from './network-node.js';
export { frameSocket } from './frame-socket.js';
