/** Reads for the live charts and the dead-letter view by class; components get them through the store. */
import type { SliceCreator } from '../store/shared.js';
import type { TrafficSlice } from './traffic-types.js';

export const createTrafficSlice: SliceCreator<TrafficSlice> = (_set, _get, ctx) => ({
  trafficOf(computer, path, seconds) {
    return ctx.clientFor(computer).traffic({ ...(path === null ? {} : { path }), seconds });
  },
  async classCountsOf(computer, path) {
    return (await ctx.clientFor(computer).queueClassCounts({ path })).counts;
  },
});
