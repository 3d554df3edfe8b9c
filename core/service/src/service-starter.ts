/** What `qk service start` runs: the service in this process. Loads the server and engine only when called. */
import type { ServiceStarter } from '@qk/cli';

export const serviceStarter: ServiceStarter = {
  async start({ dataDir, name, listen }) {
    const { parseListenAddress } = await import('./listen-address.js');
    const address = parseListenAddress(listen);
    const { runService } = await import('./service-runner.js');
    const running = await runService({ dataDir, name, listen: address, handleSignals: true });
    return {
      name: running.host.name,
      id: running.host.id,
      url: running.url,
      consoleUrl: running.http.consoleUrl,
      stopped: running.stopped,
    };
  },
};
