/** Renders the one open dialog. */
import { assertNever } from '@qk/model';
import { ComputerPropertiesDialog } from '../computer/ComputerPropertiesDialog.js';
import { ConnectDialog } from '../computer/ConnectDialog.js';
import { ColumnsDialog } from '../message-list/ColumnsDialog.js';
import { ImportDialog } from '../messages/ImportDialog.js';
import { MessagePropertiesDialog } from '../messages/MessagePropertiesDialog.js';
import { MoveDialog } from '../messages/MoveDialog.js';
import { SendTestDialog } from '../messages/SendTestDialog.js';
import { NewQueueDialog } from '../queues/NewQueueDialog.js';
import { QueuePropertiesDialog } from '../queues/QueuePropertiesDialog.js';
import { useAppStore } from '../store/use-app-store.js';
import { AboutDialog } from './AboutDialog.js';
import { ConfirmDialog } from './ConfirmDialog.js';

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
