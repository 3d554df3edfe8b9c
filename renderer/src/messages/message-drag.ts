/**
 * Drag and drop of messages between queues (QueueExplorer's way): drag selected rows of the message list
 * onto a queue in the tree or in a folder's list; a plain drop moves them, a drop with Ctrl held copies
 * them (the originals stay). Only queues of the same computer that take messages accept the drop.
 */
import { useState, type DragEvent } from 'react';
import { attempt } from '../commands/action-item.js';
import { samePath } from '../store/shared.js';
import { useStoreApi } from '../store/use-app-store.js';

/** The drag data type of messages (the payload says where they come from and how many). */
export const MESSAGE_DRAG_TYPE = 'application/x-queuekeeper-messages';

/** What a drag of messages carries. */
export interface MessageDrag {
  computer: string;
  path: string;
  count: number;
}

/** Starts a drag of the selected messages of the list. */
export function startMessageDrag(event: DragEvent, drag: MessageDrag): void {
  event.dataTransfer.setData(MESSAGE_DRAG_TYPE, JSON.stringify(drag));
  event.dataTransfer.setData('text/plain', `${drag.count} message${drag.count === 1 ? '' : 's'} from ${drag.path}`);
  event.dataTransfer.effectAllowed = 'copyMove';
}

/**
 * Drop targets among many rows (the tree, a folder's list): `handlersFor(id, computer, path)` gives a row's
 * handlers (a null path makes it no target); `overId` is the row messages are dragged over now.
 */
export function useMessageDrop() {
  const store = useStoreApi();
  const [overId, setOverId] = useState<string | null>(null);
  const accepts = (event: DragEvent, computer: string, path: string | null): path is string => {
    if (path === null || !event.dataTransfer.types.includes(MESSAGE_DRAG_TYPE)) return false;
    const source = store.getState().target;
    // The source list is the selection's list; a drop onto its own queue or another computer does nothing.
    return source !== null && source.computer === computer && !samePath(source.path, path);
  };
  const handlersFor = (id: string, computer: string, path: string | null) => ({
    onDragOver: (event: DragEvent) => {
      if (!accepts(event, computer, path)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = event.ctrlKey || event.metaKey ? 'copy' : 'move';
      if (overId !== id) setOverId(id);
    },
    onDragLeave: () => setOverId((current) => (current === id ? null : current)),
    onDrop: (event: DragEvent) => {
      setOverId(null);
      if (!accepts(event, computer, path)) return;
      event.preventDefault();
      const copy = event.ctrlKey || event.metaKey;
      attempt(store, copy ? 'Copy messages' : 'Move messages', () =>
        copy ? store.getState().copySelected(path) : store.getState().moveSelected(path),
      );
    },
  });
  return { overId, handlersFor };
}
