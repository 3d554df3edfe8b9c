/** Transport between queue managers: peer certificates, directory, routes, sessions (docs/network.md). */
export * from './certificate.js';
export { Directory, type NextHop } from './directory.js';
export { NetworkNode, type NetworkEvent, type NetworkNodeOptions, type NetworkStatus } from './network-node.js';
export { stderrLog, type NetworkLog } from './log.js';
export { frameSocket, MAX_FRAME_BYTES, type FrameConnection } from './frame-socket.js';
