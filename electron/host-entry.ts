/** The utility process's start: open the service on the data folder given by the main process. */
import { BATCH_REPLY_LIMIT } from '@qk/rpc';
import { DELIVERING_OPERATIONS, runService } from '@qk/service';
import { runHostProcess, type ParentPortLike } from './host-process.js';

/** The data folder from `--qk-data DIR`. */
export function dataDirFromArgv(argv: readonly string[]): string {
  const index = argv.indexOf('--qk-data');
  const dir = index >= 0 ? argv[index + 1] : undefined;
  if (!dir) throw new Error('The service process needs --qk-data DIR.');
  return dir;
}

/** Starts the host in this utility process. */
export function runUtilityHost(port: ParentPortLike): Promise<void> {
  return runHostProcess(
    port,
    async () => {
      const service = await runService({
        dataDir: dataDirFromArgv(process.argv),
        listen: { host: '127.0.0.1', port: 0 },
        handleSignals: false,
        // This utility process exists for the service: owner-only files, errors logged rather than fatal.
        processOwner: true,
        terminal: process.stderr,
      });
      return {
        name: service.host.name,
        id: service.host.id,
        url: service.url,
        call: (op, input, { signal, deliver, id, stream }) =>
          service.host.call(op, input, {
            signal,
            deliver,
            replyLimit: BATCH_REPLY_LIMIT,
            // The console's streaming receive (issue 11) rides the same frames as over WebSocket.
            stream: { id, reader: stream },
          }),
        subscribe: (listener) => service.host.subscribe(listener),
        isDestructive: (op) => DELIVERING_OPERATIONS.has(op),
        stop: () => service.stop(),
      };
    },
    (code) => process.exit(code),
  );
}
