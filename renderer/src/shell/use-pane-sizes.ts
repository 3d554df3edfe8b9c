/** The widths of the tree and actions panes, dragged by splitters and remembered in localStorage. */
import { useCallback, useState } from 'react';

const KEY = 'queuekeeper.paneSizes';
const DEFAULTS = { tree: 280, actions: 200 };

/** Pane widths and a setter that persists. */
export function usePaneSizes(): [typeof DEFAULTS, (next: Partial<typeof DEFAULTS>) => void] {
  const [sizes, setSizes] = useState(() => {
    try {
      return { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<typeof DEFAULTS>) };
    } catch {
      return DEFAULTS;
    }
  });
  const update = useCallback((next: Partial<typeof DEFAULTS>) => {
    setSizes((old) => {
      const merged = { ...old, ...next };
      localStorage.setItem(KEY, JSON.stringify(merged));
      return merged;
    });
  }, []);
  return [sizes, update];
}
