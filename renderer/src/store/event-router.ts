/**
 * Turns the service's events into store updates. Events can come by the thousand per second (a bulk
 * send, a purge), so every effect is coalesced: counts flush at most every 100 ms, list and status
 * refreshes run at most once per window, never starved by a steady stream.
 */
import type { QkEvent } from '@qk/api';
import { assertNever } from '@qk/model';
import { inBackground, samePath, type GetState } from './shared.js';

const COUNTS_MS = 100;
const LIST_MS = 150;
const QUEUES_MS = 100;
const STATUS_MS = 500;

interface RouterState {
  timers: Map<string, ReturnType<typeof setTimeout>>;
  counts: Map<string, Map<string, Extract<QkEvent, { type: 'queueChanged' }>>>;
}

const routers = new WeakMap<GetState, RouterState>();

function stateFor(get: GetState): RouterState {
  let state = routers.get(get);
  if (!state) {
    state = { timers: new Map(), counts: new Map() };
    routers.set(get, state);
  }
  return state;
}

/** Runs fn once, `ms` after the first request in a window (throttle with a trailing call). */
function coalesce(get: GetState, key: string, ms: number, fn: () => void): void {
  const { timers } = stateFor(get);
  if (timers.has(key)) return;
  timers.set(
    key,
    setTimeout(() => {
      timers.delete(key);
      fn();
    }, ms),
  );
}

function listShows(get: GetState, computer: string, path: string): boolean {
  const target = get().target;
  return target !== null && target.computer === computer && samePath(target.path, path);
}

/** Also true for the journal of the listed queue's path and vice versa (a receive journals a copy). */
function listShowsQueueOrJournal(get: GetState, computer: string, path: string): boolean {
  const target = get().target;
  if (target === null || target.computer !== computer) return false;
  return samePath(target.path, path) || samePath(target.path, `${path}\\JOURNAL$`);
}

/** Applies one event from `computer` to the store. */
export function routeEvent(get: GetState, computer: string, event: QkEvent): void {
  const refreshStatus = () =>
    coalesce(get, `status:${computer}`, STATUS_MS, () =>
      inBackground(get, 'Read status', get().refreshStatus(computer)),
    );
  const refreshList = () => coalesce(get, 'list', LIST_MS, () => get().invalidateList());
  const recheckDetails = (path: string) => {
    const details = get().details;
    if (details?.message && !details.gone && details.computer === computer && samePath(details.path, path))
      coalesce(get, `details:${computer}`, STATUS_MS, () =>
        inBackground(get, 'Check the open message', get().recheckDetails(computer, path)),
      );
  };
  switch (event.type) {
    case 'queueCreated':
    case 'queueDeleted':
      coalesce(get, `queues:${computer}`, QUEUES_MS, () =>
        inBackground(get, 'List queues', get().refreshQueues(computer)),
      );
      if (event.type === 'queueDeleted') {
        get().leaveDeletedQueue(computer, event.path);
        if (listShowsQueueOrJournal(get, computer, event.path)) refreshList();
      }
      refreshStatus();
      return;
    case 'queueChanged': {
      const { counts } = stateFor(get);
      let perComputer = counts.get(computer);
      if (!perComputer) {
        perComputer = new Map();
        counts.set(computer, perComputer);
      }
      perComputer.set(event.path.toLowerCase(), event);
      // Bursts of messages are told only by counts (core/api events): the listed queue refreshes on them too,
      // and an open message's sheet checks that its message is still there.
      if (listShowsQueueOrJournal(get, computer, event.path)) refreshList();
      recheckDetails(event.path);
      coalesce(get, `counts:${computer}`, COUNTS_MS, () => {
        const pending = counts.get(computer);
        counts.delete(computer);
        for (const change of pending?.values() ?? []) get().applyCounts(computer, change);
      });
      refreshStatus();
      return;
    }
    case 'queuePurged':
      if (listShowsQueueOrJournal(get, computer, event.path)) refreshList();
      get().messageLeft(computer, event.path, get().details?.message?.lookupId ?? 0, 'purged');
      refreshStatus();
      return;
    case 'messageArrived':
      if (listShows(get, computer, event.path)) refreshList();
      return;
    case 'messageRemoved':
      if (listShows(get, computer, event.path)) refreshList();
      get().messageLeft(computer, event.path, event.lookupId, event.reason);
      return;
    case 'settingChanged':
      coalesce(get, `settings:${computer}`, QUEUES_MS, () =>
        inBackground(get, 'Read settings', get().refreshSettings(computer)),
      );
      refreshStatus();
      return;
    case 'serviceRestarted':
      coalesce(get, `restart:${computer}`, QUEUES_MS, () => {
        inBackground(get, 'List queues', get().refreshQueues(computer));
        inBackground(get, 'Read settings', get().refreshSettings(computer));
        inBackground(get, 'Read status', get().refreshStatus(computer));
        if (get().target?.computer === computer) get().invalidateList();
      });
      return;
    case 'outgoingQueueChanged':
      // The state, next hop and counts go to the Outgoing Queues view at once; the tree's counts follow.
      get().noteOutgoing(computer, event.outgoing);
      coalesce(get, `queues:${computer}`, QUEUES_MS, () =>
        inBackground(get, 'List queues', get().refreshQueues(computer)),
      );
      return;
    case 'peerChanged':
      get().notePeer(computer, event.peer);
      return;
    default:
      assertNever(event, 'event');
  }
}
