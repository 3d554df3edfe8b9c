/**
 * One real service for a test file's `qk` runs: started before its tests, stopped after them. `remote` points
 * `qk` at it; `client` sets up and checks what the commands should find and leave.
 */
import { afterAll, beforeAll } from 'vitest';
import { QkClient } from '@qk/client';
import { runService, type RunningService } from '@qk/service';
import { tempDataDir } from '../service/helpers.js';

export interface CliService {
  /** `--service URL --token TOKEN`, to put before a command's arguments. */
  readonly remote: string[];
  readonly client: QkClient;
}

export function serviceForFile(name: string): CliService {
  let service: RunningService | undefined;
  let cleanup: (() => void) | undefined;
  let remote: string[] = [];
  let client: QkClient | undefined;
  beforeAll(async () => {
    const temp = tempDataDir(`qk-${name.toLowerCase()}-`);
    cleanup = temp.cleanup;
    service = await runService({ dataDir: temp.dir, name, consoleDir: null });
    remote = ['--service', service.url, '--token', service.token];
    client = await QkClient.connect({ url: service.url, token: service.token });
  });
  afterAll(async () => {
    await client?.close();
    await service?.stop();
    cleanup?.();
  });
  return {
    get remote() {
      return remote;
    },
    get client() {
      if (!client) throw new Error('The service starts in beforeAll: use the client inside a test.');
      return client;
    },
  };
}
