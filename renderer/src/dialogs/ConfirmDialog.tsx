/** A confirmation: "Purge 1,204 messages from Dead-letter messages?" with the action's own button. */
import type { ConfirmRequest } from '../store/types.js';
import { useStoreApi } from '../store/use-app-store.js';
import { DialogShell } from './DialogShell.js';

/** The confirmation dialog; a destructive one defaults to Cancel. */
export function ConfirmDialog({ request }: { request: ConfirmRequest }) {
  const store = useStoreApi();
  return (
    <DialogShell
      title={request.title}
      onClose={() => store.getState().closeDialog()}
      onOk={() => request.onConfirm()}
      okLabel={request.confirmLabel}
      destructive={request.destructive === true}
      width={460}
    >
      <p className="confirm-text">{request.text}</p>
      {request.details?.map((line) => (
        <p key={line} className="confirm-detail">
          {line}
        </p>
      ))}
    </DialogShell>
  );
}
