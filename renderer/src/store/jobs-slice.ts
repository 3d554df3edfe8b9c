/**
 * Long operations as jobs: progress in the status bar, Cancel between chunks. A chunk is one service
 * call that is atomic on the service, so cancelling never loses a message half-way.
 */
import { describeError } from '../client/console-client.js';
import type { SliceCreator } from './shared.js';
import type { Job, JobsSlice } from './types.js';

let jobSeq = 1;

export const createJobsSlice: SliceCreator<JobsSlice> = (set, get) => {
  const controllers = new Map<number, AbortController>();
  const update = (id: number, patch: Partial<Job> | ((job: Job) => Partial<Job>)) =>
    set((s) => ({
      jobs: s.jobs.map((j) => (j.id === id ? { ...j, ...(typeof patch === 'function' ? patch(j) : patch) } : j)),
    }));

  return {
    jobs: [],

    async runJob(title, work) {
      const id = jobSeq++;
      const controller = new AbortController();
      controllers.set(id, controller);
      set((s) => ({
        jobs: [...s.jobs, { id, title, total: null, done: 0, state: 'running', failures: [], summary: null }],
      }));
      try {
        const summary = await work({
          signal: controller.signal,
          setTotal: (total) => update(id, { total }),
          progress: (done) => update(id, { done }),
          fail: (item, code, message) => update(id, (j) => ({ failures: [...j.failures, { item, code, message }] })),
        });
        update(id, { state: controller.signal.aborted ? 'cancelled' : 'done', summary });
      } catch (error) {
        const { code, message } = describeError(error);
        update(id, { state: 'failed', summary: `${code}: ${message}` });
        get().reportError(title, error);
      } finally {
        controllers.delete(id);
      }
      return get().jobs.find((j) => j.id === id) as Job;
    },

    cancelJob(id) {
      controllers.get(id)?.abort();
    },

    dismissJob(id) {
      set((s) => ({ jobs: s.jobs.filter((j) => j.id !== id) }));
    },
  };
};
