/** Renders the one open dialog. */
import { assertNever } from '@qk/model';
import { useAppStore } from '../store/use-app-store.js';
import { ComputerPropertiesDialog } from './ComputerPropertiesDialog.js';
import { MessagePropertiesDialog } from './MessagePropertiesDialog.js';
import { ImportDialog, MoveDialog, NewQueueDialog, QueuePropertiesDialog } from './QueueDialogs.js';
import { SendTestDialog } from './SendTestDialog.js';
import { AboutDialog, ColumnsDialog, ConfirmDialog, ConnectDialog } from './SimpleDialogs.js';

/** The dialog layer. */
export function DialogHost() {
  const dialog = useAppStore((s) => s.dialog);
  if (!dialog) return null;
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
      return <SendTestDialog computer={dialog.computer} path={dialog.path} />;
    case 'move':
      return <MoveDialog computer={dialog.computer} path={dialog.path} />;
    case 'confirm':
      return (
        <ConfirmDialog
          title={dialog.title}
          text={dialog.text}
          confirmLabel={dialog.confirmLabel}
          onConfirm={dialog.onConfirm}
        />
      );
    case 'columns':
      return <ColumnsDialog />;
    case 'connect':
      return <ConnectDialog />;
    case 'import':
      return <ImportDialog computer={dialog.computer} path={dialog.path} />;
    case 'about':
      return <AboutDialog />;
    default:
      return assertNever(dialog, 'dialog');
  }
}
