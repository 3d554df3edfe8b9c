/** A confirmation: "Purge 1,204 messages from Dead-letter messages?" with the action's own button. */
import { useStoreApi } from '../store/use-app-store.js';
import { DialogShell } from './DialogShell.js';

/** The confirmation dialog. */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const store = useStoreApi();
  return (
    <DialogShell
      title={title}
      onClose={() => store.getState().closeDialog()}
      onOk={() => onConfirm()}
      okLabel={confirmLabel}
      width={440}
    >
      <p className="confirm-text">{text}</p>
    </DialogShell>
  );
}
