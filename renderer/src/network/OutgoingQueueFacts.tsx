/** One outgoing queue's state at a glance, above its node's pane: state, next hop, counts, last error. */
import { formatCount, formatTime } from '../format/format.js';
import { outgoingOf } from './network-slice.js';
import { outgoingStateText } from './outgoing-format.js';
import { useOutgoing } from './use-outgoing.js';
import './network.css';

export function OutgoingQueueFacts({ computer, path }: { computer: string; path: string }) {
  const { list } = useOutgoing(computer);
  const o = outgoingOf(list, path);
  if (!o) return null;
  return (
    <dl className="outgoing-facts" aria-label="Outgoing queue state" data-state={o.state}>
      <div>
        <dt>State</dt>
        <dd className={`outgoing-state state-${o.state}`}>{outgoingStateText[o.state]}</dd>
      </div>
      <div>
        <dt>Next hop</dt>
        <dd>{o.nextHop ?? '—'}</dd>
      </div>
      <div>
        <dt>Messages</dt>
        <dd>{formatCount(o.messageCount)}</dd>
      </div>
      <div>
        <dt>Unconfirmed</dt>
        <dd>{formatCount(o.unconfirmedCount)}</dd>
      </div>
      <div>
        <dt>Last connected</dt>
        <dd>{o.lastConnectedTime ? formatTime(o.lastConnectedTime) : 'Never'}</dd>
      </div>
      {o.lastError && (
        <div className="outgoing-error">
          <dt>Last error</dt>
          <dd>{o.lastError}</dd>
        </div>
      )}
    </dl>
  );
}
