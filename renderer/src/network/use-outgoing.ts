/** Reads a computer's outgoing queues when a view that shows them opens; events keep them current after. */
import { useEffect } from 'react';
import type { OutgoingQueueInfo } from '@qk/model';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

const none: OutgoingQueueInfo[] = [];

export function useOutgoing(computer: string): { list: OutgoingQueueInfo[]; loaded: boolean } {
  const store = useStoreApi();
  const list = useAppStore((s) => s.outgoing[computer]);
  useEffect(() => {
    store
      .getState()
      .refreshOutgoing(computer)
      .catch((error: unknown) => store.getState().reportError('List outgoing queues', error));
  }, [store, computer]);
  return { list: list ?? none, loaded: list !== undefined };
}
