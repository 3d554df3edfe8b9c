/** Help › About. */
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { DialogShell } from './DialogShell.js';

/** The About dialog. */
export function AboutDialog() {
  const store = useStoreApi();
  const status = useAppStore((s) => s.computers[0]?.status);
  return (
    <DialogShell title="About Queuekeeper" onClose={() => store.getState().closeDialog()} width={420}>
      <p>
        <strong>Queuekeeper</strong> — message queuing with the semantics of Microsoft Message Queuing, administered
        like the Message Queuing node of Computer Management.
      </p>
      {status && (
        <p>
          Service version {status.version} on {status.name} ({status.id}).
        </p>
      )}
    </DialogShell>
  );
}
