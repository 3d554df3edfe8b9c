/** An in-memory ConsoleClient for store and component tests: enough of a queue manager to drive the console. */
import { type Mocked, vi } from 'vitest';
import type { QkEvent } from '@qk/api';
import type { MessageInfo, QueueInfo, SettingInfo } from '@qk/model';
import { ApiError, type ConsoleClient } from '../../../renderer/src/client/console-client.js';

const now = '2026-01-01T00:00:00.000Z';

/** A queue with defaults. */
export function queue(path: string, patch: Partial<QueueInfo> = {}): QueueInfo {
  const type = /\\private\$\\/i.test(path) ? 'private' : /(JOURNAL|DEADLETTER)\$$/i.test(path) ? 'system' : 'public';
  return {
    path,
    formatName: `DIRECT=OS:${path}`,
    type,
    transactional: false,
    journal: false,
    label: '',
    quotaKB: null,
    journalQuotaKB: null,
    retention: false,
    messageCount: 0,
    bytes: 0,
    journalMessageCount: 0,
    journalBytes: 0,
    createdTime: now,
    modifiedTime: now,
    ...patch,
  };
}

/** A message with defaults. */
export function message(lookupId: number, patch: Partial<MessageInfo> = {}): MessageInfo {
  return {
    id: `{00000000-0000-0000-0000-000000000001}\\${lookupId}`,
    lookupId,
    class: 'NORMAL',
    classCode: 0,
    label: `m${lookupId}`,
    body: 'hello',
    bodyBase64: 'aGVsbG8=',
    bodySize: 5,
    priority: 3,
    delivery: 'express',
    journal: 0,
    acknowledge: 0,
    adminQueue: null,
    responseQueue: null,
    destinationQueue: '.\\private$\\orders',
    correlationId: null,
    appSpecific: 0,
    sourceMachine: 'ALPHA',
    sourceMachineId: '00000000-0000-0000-0000-000000000001',
    sentTime: now,
    arrivedTime: now,
    timeToReachQueue: 345600,
    timeToBeReceived: null,
    transactional: false,
    conversation: null,
    status: 1,
    ...patch,
  };
}

const settings: SettingInfo[] = [
  {
    name: 'MachineQuota',
    value: 1048576,
    default: 1048576,
    unit: 'KB',
    min: 1,
    max: 0xffffffff,
    restartRequired: false,
    pending: null,
    description: 'd',
  },
  {
    name: 'RemoveDuplicateSize',
    value: 10000,
    default: 10000,
    unit: 'entries',
    min: 0,
    max: 10000000,
    restartRequired: true,
    pending: null,
    description: 'd',
  },
];

/** The fake and its knobs. */
export type FakeClient = Mocked<ConsoleClient> & {
  queues: Map<string, QueueInfo>;
  messages: Map<string, MessageInfo[]>;
  emit(event: QkEvent): void;
  /** Resolves browse calls only when released (to test concurrency). */
  holdBrowse: boolean;
  releaseBrowse(): void;
};

/** Builds a fake with the three system queues and the given queues/messages. */
export function createFakeClient(
  init: { queues?: QueueInfo[]; messages?: Record<string, MessageInfo[]> } = {},
): FakeClient {
  const queues = new Map<string, QueueInfo>();
  for (const q of [
    queue('.\\JOURNAL$'),
    queue('.\\DEADLETTER$'),
    queue('.\\XACTDEADLETTER$', { transactional: true }),
    ...(init.queues ?? []),
  ])
    queues.set(q.path.toLowerCase(), q);
  const messages = new Map<string, MessageInfo[]>(
    Object.entries(init.messages ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  const listeners = new Set<(e: QkEvent) => void>();
  const held: Array<() => void> = [];
  const list = (path: string) => messages.get(path.toLowerCase()) ?? [];
  const counts = (path: string) => {
    const q = queues.get(path.toLowerCase());
    if (q)
      queues.set(path.toLowerCase(), {
        ...q,
        messageCount: list(path).length,
        bytes: list(path).reduce((n, m) => n + m.bodySize, 0),
      });
  };
  const need = (path: string) => {
    const q = queues.get(path.toLowerCase());
    if (!q) throw new ApiError({ code: 'QUEUE_NOT_FOUND', message: `The queue '${path}' does not exist.` });
    return q;
  };
  let settingsState = settings.map((s) => ({ ...s }));
  const fake = {
    queues,
    messages,
    holdBrowse: false,
    releaseBrowse: () => held.splice(0).forEach((r) => r()),
    emit: (event: QkEvent) => listeners.forEach((l) => l(event)),
    subscribe: (l: (e: QkEvent) => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    close: vi.fn(),
    serviceStatus: vi.fn(async () => ({
      name: 'ALPHA',
      id: 'guid-alpha',
      version: '0.1.0',
      uptimeSeconds: 5,
      messages: 0,
      bytes: 0,
      journalBytes: 0,
      settingsPendingRestart: settingsState.filter((s) => s.pending !== null).map((s) => s.name),
      duplicateCache: { entries: 1, capacity: 10000, duplicatesRemoved: 0 },
      machineQuotaUsedKB: 12,
      machineJournalQuotaUsedKB: 0,
      startedTime: now,
    })),
    queueList: vi.fn(async () => [...queues.values()]),
    queueShow: vi.fn(async ({ path }: { path: string }) => need(path)),
    queueCreate: vi.fn(async (input: { path: string; transactional?: boolean }) => {
      if (queues.has(input.path.toLowerCase())) throw new ApiError({ code: 'QUEUE_EXISTS', message: 'exists' });
      const q = queue(input.path, { transactional: input.transactional ?? false });
      queues.set(input.path.toLowerCase(), q);
      return q;
    }),
    queueSet: vi.fn(async (input: { path: string; label?: string }) => {
      const q = { ...need(input.path), ...(input.label !== undefined ? { label: input.label } : {}) };
      queues.set(input.path.toLowerCase(), q);
      return q;
    }),
    queueDelete: vi.fn(async ({ path }: { path: string }) => {
      need(path);
      queues.delete(path.toLowerCase());
      return {};
    }),
    queuePurge: vi.fn(async ({ path }: { path: string }) => {
      const purged = list(path).length;
      messages.set(path.toLowerCase(), []);
      counts(path);
      return { purged };
    }),
    browse: vi.fn(
      async ({
        path,
        offset = 0,
        limit = 100,
        filter,
      }: {
        path: string;
        offset?: number;
        limit?: number;
        filter?: { label?: string };
      }) => {
        if (fake.holdBrowse) await new Promise<void>((resolve) => held.push(resolve));
        need(path);
        const all = list(path).filter(
          (m) => !filter?.label || m.label.toLowerCase().includes(filter.label.toLowerCase()),
        );
        return { total: all.length, messages: all.slice(offset, offset + limit) };
      },
    ),
    messageGet: vi.fn(async ({ path, lookupId }: { path: string; lookupId: number }) => {
      const found = list(path).find((m) => m.lookupId === lookupId);
      if (!found) throw new ApiError({ code: 'MESSAGE_NOT_FOUND', message: 'gone' });
      return found;
    }),
    messagesDelete: vi.fn(async ({ path, lookupIds }: { path: string; lookupIds: number[] }) => {
      const before = list(path).length;
      messages.set(
        path.toLowerCase(),
        list(path).filter((m) => !lookupIds.includes(m.lookupId)),
      );
      counts(path);
      return { deleted: before - list(path).length };
    }),
    messagesMove: vi.fn(async ({ path, lookupIds, target }: { path: string; lookupIds: number[]; target: string }) => {
      need(path);
      if (!queues.has(target.toLowerCase()))
        throw new ApiError({ code: 'QUEUE_NOT_FOUND', message: `The queue '${target}' does not exist.` });
      const moving = list(path).filter((m) => lookupIds.includes(m.lookupId));
      messages.set(
        path.toLowerCase(),
        list(path).filter((m) => !lookupIds.includes(m.lookupId)),
      );
      messages.set(target.toLowerCase(), [
        ...list(target),
        ...moving.map((m) => ({ ...m, class: 'NORMAL', classCode: 0 })),
      ]);
      counts(path);
      counts(target);
      return { moved: moving.length, failed: [] };
    }),
    messageFind: vi.fn(async ({ id }: { id: string }) =>
      [...messages.entries()].flatMap(([path, ms]) =>
        ms.filter((m) => m.id === id).map((m) => ({ path: queues.get(path)?.path ?? path, message: m })),
      ),
    ),
    acknowledgmentsFor: vi.fn(async ({ id }: { id: string }) =>
      [...messages.entries()].flatMap(([path, ms]) =>
        ms.filter((m) => m.correlationId === id).map((m) => ({ path: queues.get(path)?.path ?? path, message: m })),
      ),
    ),
    settingsList: vi.fn(async () => settingsState.map((s) => ({ ...s }))),
    settingsSet: vi.fn(async ({ name, value }: { name: string; value: number }) => {
      settingsState = settingsState.map((s) =>
        s.name === name ? (s.restartRequired ? { ...s, pending: value } : { ...s, value }) : s,
      );
      return settingsState.find((s) => s.name === name) as SettingInfo;
    }),
    serviceRestart: vi.fn(async () => {
      settingsState = settingsState.map((s) => (s.pending !== null ? { ...s, value: s.pending, pending: null } : s));
      return fake.serviceStatus();
    }),
    send: vi.fn(async ({ path, message: m }: { path: string; message: { label?: string } }) => {
      need(path);
      const id = list(path).length + 1000;
      messages.set(path.toLowerCase(), [...list(path), message(id, { label: m.label ?? '' })]);
      counts(path);
      return { id: `{x}\\${id}` };
    }),
    sendBatch: vi.fn(
      async ({ messages: items }: { messages: Array<{ path: string; message: { label?: string } }> }) => {
        const ids: string[] = [];
        for (const item of items) ids.push((await fake.send(item)).id);
        return { ids };
      },
    ),
    messageArrive: vi.fn(async ({ path, message: m }: { path: string; message: { id: string; label?: string } }) => {
      need(path);
      messages.set(path.toLowerCase(), [
        ...list(path),
        message(list(path).length + 2000, { id: m.id, label: m.label ?? '' }),
      ]);
      return { accepted: true, reason: null };
    }),
  };
  return fake as unknown as FakeClient;
}

/** Lets queued promise callbacks and zero-delay timers run. */
export async function flush(times = 5): Promise<void> {
  for (let i = 0; i < times; i += 1) await new Promise((r) => setTimeout(r, 0));
}
