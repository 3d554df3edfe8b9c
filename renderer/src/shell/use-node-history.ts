/** Back/forward through the tree nodes the user visited, as MMC's toolbar arrows do. */
import { useEffect, useRef, useState } from 'react';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

/** The visited nodes and where in them the user is. */
interface History {
  nodes: string[];
  position: number;
}

/** A new selection after `position` (forward history is dropped, as in a browser); at most 100 kept. */
function visit(history: History, node: string): History {
  if (history.nodes[history.position] === node) return history;
  const nodes = [...history.nodes.slice(0, history.position + 1), node].slice(-100);
  return { nodes, position: nodes.length - 1 };
}

/** Back/forward history of selected nodes, as MMC keeps it. */
export function useNodeHistory() {
  const store = useStoreApi();
  const selected = useAppStore((s) => s.selectedNodeId);
  const [history, setHistory] = useState<History>({ nodes: [], position: -1 });
  /** Set while Back/Forward selects a node, so that selection is not recorded as a new visit. */
  const navigating = useRef(false);
  useEffect(() => {
    if (!selected) return;
    if (navigating.current) {
      navigating.current = false;
      return;
    }
    setHistory((h) => visit(h, selected));
  }, [selected]);
  const go = (delta: number) => {
    const next = history.position + delta;
    const id = history.nodes[next];
    if (!id) return;
    navigating.current = true;
    setHistory({ ...history, position: next });
    store.getState().revealNode(id);
  };
  return {
    canBack: history.position > 0,
    canForward: history.position < history.nodes.length - 1,
    back: () => go(-1),
    forward: () => go(1),
  };
}
