/** Transport between queue managers: peer certificates, directory, routes, sessions (docs/network.md). */
export * from './certificate.js';
