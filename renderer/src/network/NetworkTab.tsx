/**
 * The Network tab of Message Queuing Properties (docs/network.md): this computer's peer address and
 * fingerprint (what other computers trust), whether it is a routing server or offline, the trusted peers
 * with their fingerprints and states, and the routes; peers and routes can be added and removed here.
 */
import { useEffect, useState } from 'react';
import { formatTime } from '../format/format.js';
import { attempt } from '../commands/action-item.js';
import { Field } from '../dialogs/DialogShell.js';
import { errorText } from '../dialogs/error-text.js';
import { useAppStore, useStoreApi } from '../store/use-app-store.js';
import { peerStateText } from './outgoing-format.js';
import './network.css';

/** change() never rejects; this only satisfies the rule that every promise is handled. */
const ignore = (): void => undefined;

export function NetworkTab({ computer }: { computer: string }) {
  const store = useStoreApi();
  const status = useAppStore((s) => s.computers.find((c) => c.key === computer)?.status ?? null);
  const directory = useAppStore((s) => s.networkDirectory[computer]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    store
      .getState()
      .refreshNetworkDirectory(computer)
      .catch((e: unknown) => setError(errorText(e)));
  }, [store, computer]);

  /** Runs a change; its error shows in the tab (the sheet stays open), never dropped. True when it was made. */
  const change = (work: () => Promise<void>): Promise<boolean> =>
    work().then(
      () => {
        setError(null);
        return true;
      },
      (e: unknown) => {
        setError(errorText(e));
        return false;
      },
    );
  const run = (work: () => Promise<void>): void => {
    change(work).then(ignore, ignore);
  };

  return (
    <div className="network-tab">
      {status && (
        <>
          <Field label="Peer address">{status.peerAddress ?? 'Not listening (start with --peer-listen)'}</Field>
          <Field label="Fingerprint">
            <span className="mono fingerprint">{status.peerFingerprint ?? '—'}</span>
          </Field>
          <Field label="Routing server">{status.routing ? 'Yes' : 'No'}</Field>
          <Field label="Mode">
            {status.offline ? 'Offline (outgoing queues held, deliveries refused)' : 'Online'}{' '}
            <button
              type="button"
              onClick={() =>
                attempt(store, status.offline ? 'Bring online' : 'Take offline', () =>
                  store.getState().setOffline(computer, !status.offline),
                )
              }
            >
              {status.offline ? 'Bring online' : 'Take offline'}
            </button>
          </Field>
        </>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <h3 className="network-heading">Trusted computers</h3>
      <table className="network-table" aria-label="Trusted computers">
        <colgroup>
          <col style={{ width: 70 }} />
          <col style={{ width: 120 }} />
          <col />
          <col style={{ width: 84 }} />
          <col style={{ width: 130 }} />
          <col style={{ width: 72 }} />
        </colgroup>
        <thead>
          <tr>
            <th>Name</th>
            <th>Address</th>
            <th>Fingerprint</th>
            <th>State</th>
            <th>Last connected</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(directory?.peers ?? []).map((p) => (
            <tr key={p.name} data-peer={p.name}>
              <td>{p.name}</td>
              <td className="mono">{p.address}</td>
              <td className="mono fingerprint" title={p.fingerprint}>
                {p.fingerprint}
              </td>
              <td className={`peer-state state-${p.state}`}>{peerStateText[p.state]}</td>
              <td>{p.lastConnected ? formatTime(p.lastConnected) : 'Never'}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Stop trusting ${p.name}`}
                  onClick={() => run(() => store.getState().removePeer(computer, p.name))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {directory && directory.peers.length === 0 && (
            <tr>
              <td colSpan={6} className="muted">
                None: this computer delivers to and accepts from no other computer.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <AddPeerForm onAdd={(peer) => change(() => store.getState().addPeer(computer, peer))} />
      <h3 className="network-heading">Routes</h3>
      <table className="network-table" aria-label="Routes">
        <thead>
          <tr>
            <th>Destination</th>
            <th>Through routing server</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(directory?.routes ?? []).map((r) => (
            <tr key={r.destination} data-route={r.destination}>
              <td>{r.destination === '*' ? '* (every other computer)' : r.destination}</td>
              <td>{r.via}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Remove the route of ${r.destination}`}
                  onClick={() => run(() => store.getState().removeRoute(computer, r.destination))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {directory && directory.routes.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                None: messages go straight to their destination computer.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <SetRouteForm onSet={(destination, via) => change(() => store.getState().setRoute(computer, destination, via))} />
    </div>
  );
}

function AddPeerForm({
  onAdd,
}: {
  onAdd: (peer: { name: string; address: string; fingerprint: string }) => Promise<boolean>;
}) {
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const ready = name.trim() !== '' && address.trim() !== '' && fingerprint.trim() !== '';
  return (
    <form
      className="network-form"
      aria-label="Trust a computer"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        onAdd({ name: name.trim(), address: address.trim(), fingerprint: fingerprint.trim() }).then((made) => {
          if (!made) return; // kept for correcting; the error shows above
          setName('');
          setAddress('');
          setFingerprint('');
        }, ignore);
      }}
    >
      <input aria-label="Computer name" placeholder="Name" value={name} onChange={(e) => setName(e.target.value)} />
      <input
        aria-label="Peer address"
        placeholder="HOST:PORT"
        value={address}
        onChange={(e) => setAddress(e.target.value)}
      />
      <input
        aria-label="Fingerprint"
        className="mono"
        placeholder="sha256:…"
        value={fingerprint}
        onChange={(e) => setFingerprint(e.target.value)}
      />
      <button type="submit" disabled={!ready}>
        Trust
      </button>
    </form>
  );
}

function SetRouteForm({ onSet }: { onSet: (destination: string, via: string) => Promise<boolean> }) {
  const [destination, setDestination] = useState('');
  const [via, setVia] = useState('');
  const ready = destination.trim() !== '' && via.trim() !== '';
  return (
    <form
      className="network-form"
      aria-label="Set a route"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        onSet(destination.trim(), via.trim()).then((made) => {
          if (!made) return;
          setDestination('');
          setVia('');
        }, ignore);
      }}
    >
      <input
        aria-label="Route destination"
        placeholder="Computer or *"
        value={destination}
        onChange={(e) => setDestination(e.target.value)}
      />
      <input
        aria-label="Routing server"
        placeholder="Routing server"
        value={via}
        onChange={(e) => setVia(e.target.value)}
      />
      <button type="submit" disabled={!ready}>
        Set route
      </button>
    </form>
  );
}
