/** Renders the open dialogs, bottom first; only the top one has the keyboard. */
import { useLayoutEffect, useRef } from 'react';
import { assertNever } from '@qk/model';
import { ComputerPropertiesDialog } from '../computer/ComputerPropertiesDialog.js';
import { ConnectDialog } from '../computer/ConnectDialog.js';
import { ColumnsDialog } from '../message-list/ColumnsDialog.js';
import { CursorDialog } from '../messages/CursorDialog.js';
import { ImportDialog } from '../messages/ImportDialog.js';
import { MessagePropertiesDialog } from '../messages/MessagePropertiesDialog.js';
import { MoveDialog } from '../messages/MoveDialog.js';
import { MoveToSubqueueDialog } from '../messages/MoveToSubqueueDialog.js';
import { SearchDialog } from '../messages/SearchDialog.js';
import { SendTestDialog } from '../messages/SendTestDialog.js';
import { NewQueueDialog } from '../queues/NewQueueDialog.js';
import { QueuePropertiesDialog } from '../queues/QueuePropertiesDialog.js';
import { CustomizeViewDialog } from '../shell/CustomizeViewDialog.js';
import type { Dialog } from '../store/types.js';
import { useAppStore } from '../store/use-app-store.js';
import { AboutDialog } from './AboutDialog.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { DialogLayer } from './DialogShell.js';

/** The dialog layer. */
export function DialogHost() {
  const dialogs = useAppStore((s) => s.dialogs);
  // Where the focus was when each level of the stack opened: read in a layout effect, before the new
  // dialog's own effect moves the focus into it. A dialog that replaces another at the same level (Go to
  // message) keeps the place to return to. When a level closes, the focus goes back there.
  const returnTo = useRef<Array<HTMLElement | null>>([]);
  useLayoutEffect(() => {
    const levels = returnTo.current;
    for (let level = levels.length; level < dialogs.length; level += 1)
      levels[level] = document.activeElement as HTMLElement | null;
    if (levels.length > dialogs.length) {
      const target = levels[dialogs.length];
      levels.length = dialogs.length;
      if (target?.isConnected) target.focus();
    }
  }, [dialogs]);
  return (
    <>
      {dialogs.map((dialog, index) => (
        <DialogLayer.Provider key={index} value={{ top: index === dialogs.length - 1 }}>
          <OneDialog dialog={dialog} />
        </DialogLayer.Provider>
      ))}
    </>
  );
}

function OneDialog({ dialog }: { dialog: Dialog }) {
  switch (dialog.kind) {
    case 'messageProperties':
      return <MessagePropertiesDialog />;
    case 'queueProperties':
      return <QueuePropertiesDialog computer={dialog.computer} path={dialog.path} />;
    case 'computerProperties':
      return <ComputerPropertiesDialog computer={dialog.computer} />;
    case 'newQueue':
      return <NewQueueDialog computer={dialog.computer} queueType={dialog.queueType} />;
    case 'sendTest':
      return <SendTestDialog computer={dialog.computer} path={dialog.path} from={dialog.from} />;
    case 'move':
      return <MoveDialog computer={dialog.computer} path={dialog.path} />;
    case 'confirm':
      return <ConfirmDialog request={dialog} />;
    case 'columns':
      return <ColumnsDialog />;
    case 'connect':
      return <ConnectDialog />;
    case 'import':
      return <ImportDialog computer={dialog.computer} path={dialog.path} />;
    case 'about':
      return <AboutDialog />;
    case 'customizeView':
      return <CustomizeViewDialog />;
    case 'search':
      return <SearchDialog computer={dialog.computer} />;
    case 'moveToSubqueue':
      return <MoveToSubqueueDialog computer={dialog.computer} path={dialog.path} />;
    case 'cursor':
      return <CursorDialog computer={dialog.computer} path={dialog.path} />;
    default:
      return assertNever(dialog, 'dialog');
  }
}
