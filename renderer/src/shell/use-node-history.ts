/** Back/forward through the tree nodes the user visited, as MMC's toolbar arrows do. */
import { useEffect, useRef, useState } from 'react';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

/** Back/forward history of selected nodes, as MMC keeps it. */
export function useNodeHistory() {
  const store = useStoreApi();
  const selected = useAppStore((s) => s.selectedNodeId);
  const history = useRef<string[]>([]);
  const [position, setPosition] = useState(-1);
  const navigating = useRef(false);
  useEffect(() => {
    if (!selected) return;
    if (navigating.current) {
      navigating.current = false;
      return;
    }
    if (history.current[position] === selected) return;
    history.current = [...history.current.slice(0, position + 1), selected].slice(-100);
    setPosition(history.current.length - 1);
    // position is read, not a trigger: only a new selection adds to the history.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected]);
  const go = (delta: number) => {
    const next = position + delta;
    const id = history.current[next];
    if (!id) return;
    navigating.current = true;
    setPosition(next);
    store.getState().revealNode(id);
  };
  return {
    canBack: position > 0,
    canForward: position < history.current.length - 1,
    back: () => go(-1),
    forward: () => go(1),
  };
}
