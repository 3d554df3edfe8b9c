/**
 * Entry point. In Electron the preload bridge is there (`window.queuekeeper`); in a browser the console
 * talks HTTP/WebSocket to the service that served it, signed in by its link's one-time code or the login step.
 */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createBridgeClient } from './client/bridge-client.js';
import type { QueuekeeperBridge } from '@qk/api';
import { describeError, type ConsoleClient } from './client/console-client.js';
import { createHttpClient } from './client/http-client.js';
import { forgetToken, redeemLinkCode, rememberToken, storedToken, takeLinkCode } from './client/token.js';
import { App } from './shell/App.js';
import { LoginScreen } from './shell/LoginScreen.js';
import { createAppStore, type AppStore } from './store/app-store.js';
import { StoreProvider } from './store/use-app-store.js';
import './styles.css';

declare global {
  interface Window {
    queuekeeper?: QueuekeeperBridge;
  }
}

function startStore(client: ConsoleClient): AppStore {
  const store = createAppStore(client);
  store
    .getState()
    .start()
    .catch((error: unknown) => store.getState().reportError('Connect', error));
  // Tests and the UI bench read the store; it holds no secrets (the token stays in the client).
  (window as unknown as { __qkStore?: AppStore }).__qkStore = store;
  return store;
}

/** The link's one-time code, read and exchanged once per page load (the URL loses it at once). */
const linkCode = window.queuekeeper ? null : takeLinkCode();
const linkStore = linkCode
  ? redeemLinkCode(window.location.origin, linkCode).then((token) =>
      startStore(createHttpClient({ baseUrl: window.location.origin, token })),
    )
  : null;

function BrowserRoot() {
  const [store, setStore] = useState<AppStore | null>(() => {
    const token = linkStore ? null : storedToken();
    return token ? startStore(createHttpClient({ baseUrl: window.location.origin, token })) : null;
  });
  const [error, setError] = useState<string | null>(null);
  const [signingIn, setSigningIn] = useState(linkStore !== null);
  useEffect(() => {
    if (!linkStore) return;
    linkStore.then(
      (started) => {
        setStore(started);
        setSigningIn(false);
      },
      (e: unknown) => {
        const { code, message } = describeError(e);
        setError(`${code}: ${message}`);
        setSigningIn(false);
      },
    );
  }, []);
  const signIn = async (token: string) => {
    const client = createHttpClient({ baseUrl: window.location.origin, token });
    try {
      await client.serviceStatus({});
      rememberToken(token);
      setStore(startStore(client));
    } catch (e) {
      client.close();
      forgetToken();
      const { code, message } = describeError(e);
      setError(`${code}: ${message}`);
    }
  };

  if (signingIn) return null;
  if (store) {
    return (
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    );
  }
  return (
    <LoginScreen
      error={error}
      onToken={(token) => {
        signIn(token).catch((e: unknown) => setError(describeError(e).message));
      }}
    />
  );
}

const root = createRoot(document.getElementById('root') as HTMLElement);
if (window.queuekeeper) {
  const store = startStore(createBridgeClient(window.queuekeeper));
  root.render(
    <StrictMode>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </StrictMode>,
  );
} else {
  root.render(
    <StrictMode>
      <BrowserRoot />
    </StrictMode>,
  );
}
