/**
 * How `qk service start` runs a service in this process: the adapter between the CLI's ServiceStarter and the
 * service's runService. It lives here, in the composition root, because it is the one place allowed to know
 * both layers: core/cli imports only client and api, and core/service needs nothing of the CLI.
 * The service layer is imported on first use, so every other command starts without loading fastify or SQLite.
 */
import type { ServiceStarter } from '@qk/cli';

export const serviceStarter: ServiceStarter = {
  async start(options) {
    const { parseListenAddress, parseLogLevel, runService } = await import('@qk/service');
    const running = await runService({
      dataDir: options.dataDir,
      name: options.name,
      listen: parseListenAddress(options.listen),
      allowRemote: options.allowRemote,
      tls: options.tls,
      allowedHosts: options.allowHosts,
      allowedOrigins: options.allowOrigins,
      handleSignals: true,
      peerListen: options.peerListen === undefined ? undefined : parseListenAddress(options.peerListen),
      routing: options.routing,
      logLevel: parseLogLevel(options.logLevel),
      terminal: process.stderr,
      processOwner: true,
    });
    const network = running.network.status();
    return {
      peerAddress: network.peerAddress,
      peerFingerprint: network.peerFingerprint,
      name: running.host.name,
      id: running.host.id,
      url: running.url,
      consoleLink: () => running.http.consoleLink(),
      stopped: running.stopped,
    };
  },
};
