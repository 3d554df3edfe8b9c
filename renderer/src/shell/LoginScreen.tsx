/** Asks for the service token when no console link signed this tab in (browser mode). */
import { useState } from 'react';

/** The login step. */
export function LoginScreen({ onToken, error }: { onToken: (token: string) => void; error: string | null }) {
  const [token, setToken] = useState('');
  return (
    <div className="login">
      <form
        className="dialog login-box"
        role="dialog"
        aria-labelledby="login-title"
        onSubmit={(e) => {
          e.preventDefault();
          if (token.trim()) onToken(token.trim());
        }}
      >
        <div className="dialog-title" id="login-title">
          Queuekeeper — sign in to this computer's service
        </div>
        <div className="dialog-body">
          <p>
            Open a new link from <code>qk console</code> (the one <code>npm start</code> or{' '}
            <code>qk service start</code> printed works once, for a minute), or paste the token from the data folder's{' '}
            <code>token</code> file.
          </p>
          <label className="form-row">
            <span>Token</span>
            <input
              autoFocus
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              aria-label="Token"
            />
          </label>
          {error && (
            <p className="dialog-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="dialog-buttons">
          <button type="submit" className="primary" disabled={!token.trim()}>
            Connect
          </button>
        </div>
      </form>
    </div>
  );
}
