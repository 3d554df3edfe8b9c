/**
 * How `qk service start` runs a service in this process: the adapter between the CLI's ServiceStarter and the
 * service's runService. It lives here, in the composition root, because it is the one place allowed to know
 * both layers: core/cli imports only client and api, and core/service needs nothing of the CLI.
 * The service layer is imported on first use, so every other command starts without loading fastify or SQLite.
 */
import type { ServiceStarter } from '@qk/cli';

export const serviceStarter: ServiceStarter = {
  async start({ dataDir, name, listen, peerListen, routing }) {
    const { parseListenAddress, runService } = await import('@qk/service');
    const address = parseListenAddress(listen);
    const peerAddress = peerListen === undefined ? undefined : parseListenAddress(peerListen);
    const running = await runService({
      dataDir,
      name,
      listen: address,
      handleSignals: true,
      peerListen: peerAddress,
      routing,
    });
    const network = running.network.status();
    return {
      peerAddress: network.peerAddress,
      peerFingerprint: network.peerFingerprint,
      name: running.host.name,
      id: running.host.id,
      url: running.url,
      consoleUrl: running.http.consoleUrl,
      stopped: running.stopped,
    };
  },
};
