/** One service per test file: started before the first test, stopped and deleted after the last. */
import { afterAll, beforeAll } from 'vitest';
import { Qk } from './qk-ops.js';
import { ServiceHarness, type HarnessOptions } from './service-harness.js';
import { removeTempFiles } from './temp-files.js';

export interface FileService {
  readonly svc: ServiceHarness;
  readonly q: Qk;
}

/** Registers beforeAll/afterAll hooks; read `svc` and `q` inside tests. */
export function serviceForFile(options: HarnessOptions = {}): FileService {
  let svc: ServiceHarness | null = null;
  let q: Qk | null = null;
  beforeAll(async () => {
    svc = await ServiceHarness.create(options);
    q = new Qk(svc);
  });
  afterAll(async () => {
    removeTempFiles();
    await svc?.dispose();
  });
  return {
    get svc(): ServiceHarness {
      if (!svc) throw new Error('the service of this file did not start');
      return svc;
    },
    get q(): Qk {
      if (!q) throw new Error('the service of this file did not start');
      return q;
    },
  };
}
