/** The registry-like settings of each computer, and restarting the queue manager to apply pending ones. */
import { inBackground, type SliceCreator } from '../store/shared.js';
import type { SettingsSlice } from '../store/types.js';

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get, ctx) => ({
  settings: {},

  async refreshSettings(computer) {
    if (!ctx.hasClient(computer)) return;
    try {
      const list = await ctx.clientFor(computer).settingsList({});
      set((s) => ({ settings: { ...s.settings, [computer]: list } }));
    } catch (error) {
      get().reportError('Read settings', error);
    }
  },

  async changeSetting(computer, name, value) {
    const setting = await ctx.clientFor(computer).settingsSet({ name, value });
    set((s) => ({
      settings: { ...s.settings, [computer]: (s.settings[computer] ?? []).map((x) => (x.name === name ? setting : x)) },
    }));
    inBackground(get, 'Read status', get().refreshStatus(computer));
    return setting;
  },

  async restartService(computer) {
    const status = await ctx.clientFor(computer).serviceRestart({});
    set((s) => ({ computers: s.computers.map((c) => (c.key === computer ? { ...c, status } : c)) }));
    await Promise.all([get().refreshSettings(computer), get().refreshQueues(computer)]);
    get().invalidateList();
  },

  restartImpact(computer) {
    return ctx.clientFor(computer).serviceRestartImpact({});
  },
});
