/** Back/forward through the tree nodes the user visited, as MMC's toolbar arrows do. */
import { useState } from 'react';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

interface NodeHistory {
  entries: string[];
  position: number;
  /** The selection this history last took in. */
  seen: string | null;
}

/** Back/forward history of selected nodes, as MMC keeps it. */
export function useNodeHistory() {
  const store = useStoreApi();
  const selected = useAppStore((s) => s.selectedNodeId);
  const [history, setHistory] = useState<NodeHistory>({ entries: [], position: -1, seen: null });
  // A new selection adds to the history (adjusted while rendering); one made by Back/Forward is already there.
  if (selected !== history.seen) {
    if (!selected || history.entries[history.position] === selected) {
      setHistory({ ...history, seen: selected });
    } else {
      const entries = [...history.entries.slice(0, history.position + 1), selected].slice(-100);
      setHistory({ entries, position: entries.length - 1, seen: selected });
    }
  }
  const { entries, position } = history;
  const go = (delta: number) => {
    const next = position + delta;
    const id = entries[next];
    if (!id) return;
    setHistory({ ...history, position: next });
    store.getState().revealNode(id);
  };
  return {
    canBack: position > 0,
    canForward: position < entries.length - 1,
    back: () => go(-1),
    forward: () => go(1),
  };
}
