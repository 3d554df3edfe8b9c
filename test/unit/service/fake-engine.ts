/**
 * A small in-memory stand-in for the queue manager, for transport tests that need exact control (waiting
 * receives, aborted transactions, closing). Only what those tests use is implemented.
 */
import {
  QkError,
  settingDefinitions,
  settingNames,
  type MessageInfo,
  type QueueInfo,
  type SendProperties,
  type QkEvent,
} from '@qk/model';
import type { EngineListener, PeekInput, QueueManagerApi, ReceiveInput } from '@qk/engine';

interface Waiter {
  path: string;
  remove: boolean;
  resolve(message: MessageInfo): void;
  reject(error: Error): void;
}

/** What a test can look at after the fact. */
export interface FakeEngineLog {
  opened: number;
  closed: number;
  abortedTransactions: string[];
  committedTransactions: string[];
  receiveSignals: AbortSignal[];
}

const GUID = '11111111-2222-3333-4444-555555555555';

/** Builds a fake engine factory whose instances share one log (so a restart shows as opened twice). */
export function fakeEngineFactory(): { open: () => QueueManagerApi; log: FakeEngineLog } {
  const log: FakeEngineLog = {
    opened: 0,
    closed: 0,
    abortedTransactions: [],
    committedTransactions: [],
    receiveSignals: [],
  };
  return { open: () => createFakeEngine(log), log };
}

function queueInfo(path: string, transactional: boolean, count: number): QueueInfo {
  const now = new Date(0).toISOString();
  return {
    path,
    formatName: `DIRECT=OS:fake\\${path}`,
    type: 'private',
    transactional,
    journal: false,
    label: '',
    quotaKB: null,
    journalQuotaKB: null,
    retention: false,
    messageCount: count,
    bytes: count,
    journalMessageCount: 0,
    journalBytes: 0,
    createdTime: now,
    modifiedTime: now,
  };
}

function createFakeEngine(log: FakeEngineLog): QueueManagerApi {
  log.opened++;
  const queues = new Map<string, { path: string; transactional: boolean; messages: MessageInfo[] }>();
  const listeners = new Set<EngineListener>();
  const waiters = new Set<Waiter>();
  const openTransactions = new Set<string>();
  let sequence = 0;
  let nextTx = 1;
  let closed = false;

  const emit = (event: QkEvent): void => listeners.forEach((l) => l(event));
  const queue = (path: string) => {
    if (closed) throw new QkError('SERVICE_NOT_AVAILABLE', 'closed');
    const q = queues.get(path.toLowerCase());
    if (!q) throw new QkError('QUEUE_NOT_FOUND', `The queue '${path}' does not exist.`);
    return q;
  };
  const toMessage = (path: string, props: SendProperties): MessageInfo => {
    sequence++;
    const body = props.body ?? '';
    return {
      id: `{${GUID}}\\${sequence}`,
      lookupId: sequence,
      class: 'NORMAL',
      classCode: 0,
      label: props.label ?? '',
      body,
      bodyBase64: Buffer.from(body).toString('base64'),
      bodySize: Buffer.byteLength(body),
      priority: props.priority ?? 3,
      delivery: props.delivery ?? 'express',
      journal: 0,
      acknowledge: 0,
      adminQueue: null,
      responseQueue: null,
      destinationQueue: path,
      correlationId: null,
      appSpecific: 0,
      sourceMachine: 'fake',
      sourceMachineId: GUID,
      sentTime: new Date().toISOString(),
      arrivedTime: new Date().toISOString(),
      timeToReachQueue: 345_600,
      timeToBeReceived: null,
      transactional: false,
      conversation: null,
      status: 1,
      moveCount: 0,
      abortCount: 0,
      lastMoveTime: null,
      deadLetterQueue: null,
    };
  };
  const take = (input: ReceiveInput | PeekInput, remove: boolean): Promise<MessageInfo> => {
    const q = queue(input.path);
    const first = q.messages[0];
    if (first) {
      if (remove) q.messages.shift();
      return Promise.resolve(first);
    }
    if (!input.timeoutMs) return Promise.reject(new QkError('IO_TIMEOUT', 'No message arrived in time.'));
    if (input.signal) log.receiveSignals.push(input.signal);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { path: q.path.toLowerCase(), remove, resolve, reject };
      const done = (): void => {
        waiters.delete(waiter);
        clearTimeout(timer);
      };
      const timer = setTimeout(() => {
        done();
        reject(new QkError('IO_TIMEOUT', 'No message arrived in time.'));
      }, input.timeoutMs);
      waiter.resolve = (m) => (done(), resolve(m));
      waiter.reject = (e) => (done(), reject(e));
      input.signal?.addEventListener('abort', () => waiter.reject(new QkError('OPERATION_CANCELLED', 'cancelled')), {
        once: true,
      });
      waiters.add(waiter);
    });
  };
  const unsupported = (): never => {
    throw new QkError('INTERNAL', 'not in the fake engine');
  };

  return {
    name: 'FAKE',
    id: GUID,
    status: () => ({
      name: 'FAKE',
      id: GUID,
      version: 'fake',
      uptimeSeconds: 1,
      messages: 0,
      bytes: 0,
      journalBytes: 0,
      settingsPendingRestart: [],
      duplicateCache: { entries: 0, capacity: 10_000, duplicatesRemoved: 0 },
      machineQuotaUsedKB: 0,
      machineJournalQuotaUsedKB: 0,
      peerAddress: null,
      peerFingerprint: null,
      routing: false,
      offline: false,
      startedTime: new Date(0).toISOString(),
    }),
    listQueues: () => [...queues.values()].map((q) => queueInfo(q.path, q.transactional, q.messages.length)),
    showQueue: (path) => {
      const q = queue(path);
      return queueInfo(q.path, q.transactional, q.messages.length);
    },
    createQueue: (input) => {
      if (queues.has(input.path.toLowerCase())) throw new QkError('QUEUE_EXISTS', `The queue '${input.path}' exists.`);
      queues.set(input.path.toLowerCase(), {
        path: input.path,
        transactional: input.transactional ?? false,
        messages: [],
      });
      emit({ type: 'queueCreated', path: input.path });
      return queueInfo(input.path, input.transactional ?? false, 0);
    },
    setQueue: unsupported,
    deleteQueue: async (path) => {
      queue(path);
      queues.delete(path.toLowerCase());
      emit({ type: 'queueDeleted', path });
    },
    purgeQueue: async (path) => {
      const q = queue(path);
      const purged = q.messages.length;
      q.messages = [];
      return purged;
    },
    send: async (path, props) => {
      const q = queue(path);
      const message = toMessage(q.path, props);
      const waiter = [...waiters].find((w) => w.path === q.path.toLowerCase());
      if (waiter) {
        if (!waiter.remove) q.messages.push(message);
        waiter.resolve(message);
      } else q.messages.push(message);
      emit({ type: 'messageArrived', path: q.path, lookupId: message.lookupId, id: message.id, classCode: 0 });
      return message.id;
    },
    sendBatch: unsupported,
    receive: (input) => take(input, true),
    receiveBatch: unsupported,
    consume: unsupported,
    peek: (input) => take(input, false),
    // The fake knows one computer: paths that start with another name are remote.
    isRemotePath: (path) => !/^\.\\/.test(path),
    browse: (input) => {
      const q = queue(input.path);
      const offset = input.offset ?? 0;
      return { total: q.messages.length, messages: q.messages.slice(offset, offset + (input.limit ?? 100)) };
    },
    getMessage: (path, lookupId) => {
      const found = queue(path).messages.find((m) => m.lookupId === lookupId);
      if (!found) throw new QkError('MESSAGE_NOT_FOUND', 'no such message');
      return found;
    },
    deleteMessage: unsupported,
    deleteMessages: unsupported,
    moveMessages: unsupported,
    copyMessages: unsupported,
    moveMessage: unsupported,
    openCursor: unsupported,
    cursorPeek: unsupported,
    cursorReceive: unsupported,
    closeCursor: unsupported,
    releaseOpenedSubqueues: () => undefined,
    releaseMemory: () => undefined,
    rejectMessage: unsupported,
    resendDeadLetters: unsupported,
    exportMessages: unsupported,
    importMessages: unsupported,
    findMessage: () => [],
    acknowledgmentsFor: () => [],
    arrive: async () => ({ accepted: true, reason: null }),
    endConversation: () => 0,
    beginTransaction: () => {
      const tx = `tx-${nextTx++}`;
      openTransactions.add(tx);
      return tx;
    },
    commitTransaction: async (tx) => {
      if (!openTransactions.delete(tx)) throw new QkError('TRANSACTION_USAGE', `No open transaction ${tx}.`);
      log.committedTransactions.push(tx);
    },
    abortTransaction: (tx) => {
      if (!openTransactions.delete(tx)) throw new QkError('TRANSACTION_USAGE', `No open transaction ${tx}.`);
      log.abortedTransactions.push(tx);
    },
    listSettings: () =>
      settingNames.map((name) => ({
        ...settingDefinitions[name],
        value: settingDefinitions[name].default,
        pending: null,
      })),
    setSetting: unsupported,
    traffic: unsupported,
    classCounts: unsupported,
    networkConfig: {
      peers: () => [],
      putPeer: unsupported,
      removePeer: unsupported,
      peerConnected: unsupported,
      routes: () => [],
      setRoute: unsupported,
      removeRoute: unsupported,
      outgoingQueues: () => [],
      outgoingQueue: unsupported,
      setOutgoingPaused: unsupported,
      offline: () => false,
      setOffline: unsupported,
    },
    // A computer with nothing to send and nobody sending to it.
    networkPort: {
      outgoing: () => [],
      lease: () => null,
      settle: unsupported,
      release: unsupported,
      resendNow: () => undefined,
      deliver: unsupported,
      pendingControl: () => null,
      controlDelivered: unsupported,
      receiveControl: unsupported,
    },
    on: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      closed = true;
      log.closed++;
      for (const w of [...waiters]) w.reject(new QkError('SERVICE_NOT_AVAILABLE', 'The queue manager stopped.'));
    },
  };
}
