/** The public surface of the queue manager: what a host (the service, Electron) calls. */
import type {
  BrowseFilter,
  ImportMode,
  BrowseSortColumn,
  ErrorCode,
  ExportedMessage,
  Logger,
  MessageInfo,
  MessageProperty,
  QkEvent,
  QueueInfo,
  SendProperties,
  ServiceStatus,
  SettingInfo,
  LookupAction,
} from '@qk/model';
import type { NetworkConfigApi } from './network/config-types.js';
import type { NetworkPort } from './network/port-types.js';
import type { TrafficSeries } from './traffic.js';

/** The engine's sense of time; unit tests drive a fake one. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface QueueManagerOptions {
  /** Folder of the SQLite store; created when missing. */
  dataDir: string;
  /** Computer name; stored at first start, replaced when given again. Defaults to the host name. */
  name?: string | undefined;
  clock?: Clock | undefined;
  /** Product version shown by status. */
  version?: string | undefined;
  /** How often timers (expiry, duplicate-cache cleanup) are checked; default 100 ms. */
  timerTickMs?: number | undefined;
  /** Where failures that no caller waits for are reported; silent by default. */
  logger?: Logger | undefined;
}

export interface QueueCreateInput {
  path: string;
  transactional?: boolean | undefined;
  journal?: boolean | undefined;
  quotaKB?: number | null | undefined;
  journalQuotaKB?: number | null | undefined;
  label?: string | undefined;
  retention?: boolean | undefined;
}

/** `transactional` may be given only to restate the current type: it never changes (PROPERTY_NOTALLOWED). */
export type QueueSetInput = QueueCreateInput;

export interface SendOptions {
  /** An open transaction from beginTransaction(). */
  transaction?: string | undefined;
  /** A single-message transaction (MQ_SINGLE_MESSAGE). */
  transactional?: boolean | undefined;
}

export interface SendItem {
  path: string;
  message: SendProperties;
  transactional?: boolean | undefined;
}

/**
 * The caller's delivery step of a receive, in two phases. `deliver(reply)` makes sure the reply can reach the
 * caller — it serializes it, sizes it against the budget, finds the connection open and the call not
 * cancelled — and resolves with the step that writes it; it rejects when the reply cannot go, having sent
 * nothing: then the messages stay exactly where they were (same lookup ID, same position, no journal copy, no
 * acknowledgment). Otherwise a plain receive commits its removal and only then writes the reply, so a crash in
 * between loses that reply but never hands out a message that is still in its queue; a transactional receive
 * writes it and then joins its transaction (the client's commit removes it).
 */
export type Deliver<T> = (reply: T) => Promise<WriteReply>;

/** A call that its caller may cancel; its signal is read only when it is needed (a wait, no `deliver`). */
export interface Cancellable {
  readonly signal?: AbortSignal | undefined;
}
/** Writes a prepared reply; resolves once the transport has it. */
export type WriteReply = () => Promise<void>;

/** What every reading operation may name: the message properties its reply carries (MQMSGPROPS). */
interface ReadsProperties {
  /** The properties the reader wants (with `id` and `lookupId`); absent = all of them (message-view.ts). */
  properties?: readonly MessageProperty[] | undefined;
}

export interface ReceiveInput extends ReadsProperties {
  path: string;
  timeoutMs?: number | undefined;
  transaction?: string | undefined;
  transactional?: boolean | undefined;
  lookupId?: number | undefined;
  /** With lookupId: which message relative to it (R-L2); default `current`. */
  lookupAction?: LookupAction | undefined;
  signal?: AbortSignal | undefined;
  /** Without one, the reply counts as delivered once built (in-process callers). */
  deliver?: Deliver<MessageInfo> | undefined;
}

/**
 * The reader of a streaming receive (issue 11): how many messages it will take now, and the two-step delivery
 * of each — prepared (it can reach the reader), then written once its removal is committed.
 */
export interface StreamReader {
  /** Messages the reader will take now (its credit). */
  credit(): number;
  /** Resolves once the reader has credit and its connection has room; rejects when the stream ends. */
  ready(): Promise<void>;
  /** Prepares one message for the reader, using one credit; resolves with the step that writes it. */
  prepare(message: MessageInfo): Promise<WriteReply>;
}

/** A streaming receive: messages are pushed to the reader as they arrive, within its credit. */
export interface ConsumeInput extends ReadsProperties {
  path: string;
  /**
   * Messages are received inside a transaction the reader commits (`Consumption.commit`, in batches or one by
   * one); an abort, the end of the stream or a dropped connection puts back what was not committed.
   */
  transactional?: boolean | undefined;
  reader: StreamReader;
  /** Ends the stream (the reader cancelled or went away). */
  signal: AbortSignal;
  /**
   * Ends the stream once the queue has had no message ready for this long, as a receive's timeout ends the
   * receive (`timedOut` then says so); absent = the stream lasts until its signal ends it. A transactional
   * stream ends only once its reader has committed or aborted what it was sent: ending earlier would put
   * back messages the reader holds.
   */
  timeoutMs?: number | undefined;
}

/** A running streaming receive. */
export interface Consumption {
  /** Messages handed to the reader so far. */
  readonly received: number;
  /** The stream ended because the queue stayed empty for its `timeoutMs`. */
  readonly timedOut: boolean;
  /**
   * Settles when the stream has ended: resolves when its signal or its timeout ended it (whatever was handed
   * over is committed, or put back when transactional and not committed); rejects when the queue was deleted,
   * the queue manager stopped, or a removal could not be committed.
   */
  readonly done: Promise<void>;
  /**
   * Transactional: commits the first `count` messages handed over and not yet committed (all of them without
   * `count`); the later ones stay held for a later commit. Resolves with how many were committed.
   */
  commit(count?: number): Promise<number>;
  /** Transactional: puts back every message handed over and not committed; returns how many. */
  abort(): number;
}

/** The byte cap of a batch reply: messages are added while their measured size fits; the first always does. */
export interface ReplyLimit {
  maxBytes: number;
  /** Bytes a message adds to the reply as the transport will carry it. */
  measure(message: MessageInfo): number;
}

export interface ReceiveBatchInput extends ReadsProperties {
  path: string;
  max: number;
  timeoutMs?: number | undefined;
  transaction?: string | undefined;
  signal?: AbortSignal | undefined;
  replyLimit?: ReplyLimit | undefined;
  deliver?: Deliver<MessageInfo[]> | undefined;
}

/** A peek at a cursor: the message it stands at (`current`, the default) or the one after (`next`). */
export interface CursorPeekInput extends ReadsProperties {
  cursor: string;
  action?: 'current' | 'next' | undefined;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A receive at a cursor (RECEIVE_CURRENT). */
export interface CursorReceiveInput extends ReadsProperties {
  cursor: string;
  timeoutMs?: number | undefined;
  transaction?: string | undefined;
  transactional?: boolean | undefined;
  signal?: AbortSignal | undefined;
  deliver?: Deliver<MessageInfo> | undefined;
}

export interface PeekInput extends ReadsProperties {
  path: string;
  timeoutMs?: number | undefined;
  lookupId?: number | undefined;
  /** With lookupId: which message relative to it (R-L2); default `current`. */
  lookupAction?: LookupAction | undefined;
  signal?: AbortSignal | undefined;
}

export interface BrowseInput {
  path: string;
  offset?: number | undefined;
  limit?: number | undefined;
  sort?: { column: BrowseSortColumn; descending?: boolean | undefined } | undefined;
  filter?: BrowseFilter | undefined;
  /** Bodies are left out of browse pages unless asked for (a page of 4 MB bodies is not a list). */
  includeBody?: boolean | undefined;
}

export interface BrowsePage {
  total: number;
  messages: MessageInfo[];
}

export interface ArrivingMessage extends SendProperties {
  id: string;
  sourceMachineId: string;
  sourceMachine: string;
  transactional?: boolean | undefined;
  sentTime?: string | undefined;
  classCode?: number | undefined;
}

/** How an import stores messages: as they were, or as new sends from this computer. */

/** How many messages of one class a queue holds. */
export interface ClassCount {
  class: string;
  classCode: number;
  count: number;
}

export interface MessageLocation {
  path: string;
  message: MessageInfo;
}

/** Told every event the queue manager emits (core/model's QkEvent, the shape core/api checks). */
export type EngineListener = (event: QkEvent) => void;

/** Re-exported so hosts need only the engine's types. */
export type { ExportedMessage, MessageInfo, QueueInfo, SendProperties, ServiceStatus, SettingInfo, TrafficSeries };

/** What the queue manager offers its host. One method per operation of core/api, plus lifecycle. */
export interface QueueManagerApi {
  readonly name: string;
  readonly id: string;
  /** Peers, routes, outgoing-queue holds and offline mode (docs/network.md). */
  readonly networkConfig: NetworkConfigApi;
  /** Inbound and outbound delivery between computers (docs/network.md). */
  readonly networkPort: NetworkPort;
  status(): ServiceStatus;
  listQueues(): QueueInfo[];
  showQueue(path: string): QueueInfo;
  createQueue(input: QueueCreateInput): QueueInfo;
  setQueue(input: QueueSetInput): QueueInfo;
  deleteQueue(path: string): Promise<void>;
  purgeQueue(path: string): Promise<number>;
  /** Resolves with the message ID once the message is stored (durably when recoverable). */
  send(path: string, message: SendProperties, options?: SendOptions): Promise<string>;
  /** All or nothing: a refused item refuses the batch and nothing is sent. */
  sendBatch(items: SendItem[], transaction?: string): Promise<string[]>;
  /** Rejects with IO_TIMEOUT when nothing arrives within timeoutMs (default 0). */
  receive(input: ReceiveInput): Promise<MessageInfo>;
  /** Up to `max` messages, fewer when `replyLimit` stops the reply; waits only while the queue is empty. */
  receiveBatch(input: ReceiveBatchInput): Promise<MessageInfo[]>;
  /**
   * A streaming receive (issue 11): the queue's messages go to the reader as they arrive, in receive order,
   * within its credit, each through the removal path of a plain receive. QUEUE_NOT_FOUND, ACCESS_DENIED or
   * TRANSACTION_USAGE are thrown at once; later failures settle `done`.
   */
  consume(input: ConsumeInput): Consumption;
  peek(input: PeekInput): Promise<MessageInfo>;
  /** Opens a cursor before the first message of a queue (R-C2); returns its handle. */
  openCursor(path: string): string;
  /** Peeks at the cursor's message (`current`) or moves it on (`next`), waiting up to timeoutMs (R-C4). */
  cursorPeek(input: CursorPeekInput): Promise<MessageInfo>;
  /** Receives the message at the cursor; the cursor then stands after it (R-C3). */
  cursorReceive(input: CursorReceiveInput): Promise<MessageInfo>;
  closeCursor(cursor: string): void;
  /**
   * Says that the synchronous part of a call is over: a subqueue it opened only by naming it, which nothing
   * holds, goes now (R-S1), so the next call — even one read from the same chunk — cannot see it.
   */
  releaseOpenedSubqueues(): void;
  /** Lets go of what is held only to go faster (cached rows and pages); nothing a call sees changes. */
  releaseMemory(): void;
  /** True when `path` names another computer's queue: reading it reads this computer's outgoing queue for it. */
  isRemotePath(path: string): boolean;
  browse(input: BrowseInput): BrowsePage;
  getMessage(path: string, lookupId: number): MessageInfo;
  deleteMessage(path: string, lookupId: number): void;
  deleteMessages(path: string, lookupIds: number[]): number;
  /** Copies messages to another queue as new messages; the originals stay (core/engine/src/copying.ts). */
  copyMessages(
    path: string,
    lookupIds: number[],
    target: string,
  ): Promise<{ copied: number; ids: string[]; failed: { lookupId: number; code: ErrorCode; message: string }[] }>;
  moveMessages(
    path: string,
    lookupIds: number[],
    target: string,
  ): Promise<{ moved: number; failed: { lookupId: number; code: string; message: string }[] }>;
  /**
   * Moves one message: MoveMessage between a queue and its subqueues (R-S3, the subqueue opens on first
   * use), or through the arrival path to any other queue. Throws when it cannot; the message stays.
   */
  moveMessage(path: string, lookupId: number, target: string): Promise<void>;
  /** Rejects a message (R-S8): it leaves its queue; its sender gets NACK_RECEIVE_REJECTED when asked. */
  rejectMessage(path: string, lookupId: number): Promise<void>;
  /** Resends dead letters to their destinations with fresh timers; all of them when no lookup IDs are given. */
  resendDeadLetters(
    path: string,
    lookupIds?: number[],
  ): Promise<{
    resent: number;
    failed: { lookupId: number; destination: string | null; error: { code: ErrorCode; message: string } }[];
  }>;
  /** One page of a queue's messages for export, and where the next page starts (null at the end). */
  exportMessages(
    path: string,
    after: string | undefined,
    limit: number,
  ): { messages: ExportedMessage[]; next: string | null };
  /**
   * Stores exported messages in a queue as they were (`asIs`), or sends them there as new messages from this
   * computer (`asNew`: new IDs, class NORMAL, timers from now); the whole batch or nothing. Returns how many.
   */
  importMessages(path: string, messages: ExportedMessage[], mode?: ImportMode): Promise<number>;
  findMessage(id: string): MessageLocation[];
  acknowledgmentsFor(id: string): MessageLocation[];
  arrive(path: string, message: ArrivingMessage): Promise<{ accepted: boolean; reason: string | null }>;
  endConversation(conversation: string): number;
  beginTransaction(): string;
  commitTransaction(transaction: string): Promise<void>;
  abortTransaction(transaction: string): void;
  /** Messages in and out per second and depth over the last `seconds` (≤ 300), of a queue or (no path) the computer. */
  traffic(path: string | undefined, seconds: number): TrafficSeries;
  /** Messages of a queue per class, most frequent first. */
  classCounts(path: string): ClassCount[];
  listSettings(): SettingInfo[];
  /** null makes a setting that may be absent (XactDelayReceiveNack) absent again. */
  setSetting(name: string, value: number | null): SettingInfo;
  on(listener: EngineListener): () => void;
  /** Aborts open transactions, fails waiting receives with SERVICE_NOT_AVAILABLE, flushes and closes the store. */
  close(): Promise<void>;
}
