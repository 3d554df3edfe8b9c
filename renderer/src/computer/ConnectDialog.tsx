/** File › Connect to another computer: a service address and its token. */
import { useState } from 'react';
import { DialogShell } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { useStoreApi } from '../store/use-app-store.js';

/** The Connect dialog. */
export function ConnectDialog() {
  const store = useStoreApi();
  const [url, setUrl] = useState('http://127.0.0.1:');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <DialogShell
      title="Connect to another computer"
      onClose={() => store.getState().closeDialog()}
      error={error}
      okLabel="Connect"
      okDisabled={!/^https?:\/\/.+/.test(url) || token.trim() === ''}
      onOk={async () => {
        try {
          await store.getState().connectComputer(url.trim(), token.trim());
          return true;
        } catch (e) {
          setError(errorText(e));
          return false;
        }
      }}
    >
      <p className="hint">
        The computer's Queuekeeper service address (as printed by <code>qk service start</code>) and the token from its
        data folder.
      </p>
      <label className="form-row">
        <span>Service address</span>
        <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://host:port" />
      </label>
      <label className="form-row">
        <span>Token</span>
        <input value={token} onChange={(e) => setToken(e.target.value)} type="password" autoComplete="off" />
      </label>
    </DialogShell>
  );
}
