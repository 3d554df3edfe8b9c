/** View › Customize View: which parts of the window are shown (MMC's dialog of the same name), remembered. */
import type { SliceCreator } from '../store/shared.js';
import type { ViewOptions, ViewSlice } from './view-types.js';

const VIEW_KEY = 'queuekeeper.view';

export const defaultView: ViewOptions = { tree: true, actions: true, toolbar: true, statusBar: true };

export const createViewSlice: SliceCreator<ViewSlice> = (set, get, ctx) => {
  let saved: Partial<ViewOptions> = {};
  try {
    const parsed: unknown = JSON.parse(ctx.storage?.getItem(VIEW_KEY) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) saved = parsed;
  } catch {
    saved = {};
  }
  const view: ViewOptions = { ...defaultView };
  for (const key of Object.keys(defaultView) as Array<keyof ViewOptions>)
    if (typeof saved[key] === 'boolean') view[key] = saved[key];
  return {
    view,
    setView(patch) {
      const next = { ...get().view, ...patch };
      set({ view: next });
      ctx.storage?.setItem(VIEW_KEY, JSON.stringify(next));
    },
  };
};
