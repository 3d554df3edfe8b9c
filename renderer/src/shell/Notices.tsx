/** Errors from the service, with their code, shown until dismissed — nothing is silently ignored. */
import { useAppStore, useStoreApi } from '../store/use-app-store.js';

/** The error banners above the panes. */
export function Notices() {
  const store = useStoreApi();
  const notices = useAppStore((s) => s.notices);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n) => (
        <div key={n.id} className="notice" role="alert">
          <strong>{n.where} failed.</strong> <code className="error-code">{n.code}</code> {n.message}
          <button type="button" aria-label="Dismiss" onClick={() => store.getState().dismissNotice(n.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
