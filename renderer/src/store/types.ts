/** State and actions of the console store, typed apart (zustand's guide); one interface per slice. */
import type { OperationInput, OperationOutput } from '@qk/api';
import type {
  ExportedMessage,
  ImportMode,
  MessageInfo,
  QueueInfo,
  SendProperties,
  ServiceStatus,
  SettingInfo,
} from '@qk/model';
import type { ListSlice } from '../message-list/list-types.js';
import type { ViewSlice } from '../shell/view-types.js';
import type { TrafficSlice } from '../traffic/traffic-types.js';
import type { NetworkSlice } from '../network/network-types.js';

/** Where a message is now (messageFind / acknowledgmentsFor results). */
export interface MessageLocation {
  path: string;
  message: MessageInfo;
}

/** Which message-list columns the user chose (View › Add/Remove Columns) and their widths. */
export interface ColumnsSlice {
  /** Visible column ids in display order. */
  columns: string[];
  columnSizes: Record<string, number>;
  setColumns(columns: string[]): void;
  setColumnSizes(sizes: Record<string, number>): void;
}

/** A queue manager the console shows as a root of the tree. */
export interface ComputerEntry {
  key: string;
  name: string;
  id: string;
  /** Service URL for a connected (remote) computer; null for the one this console is hosted by. */
  url: string | null;
  local: boolean;
  connected: boolean;
  status: ServiceStatus | null;
}

/** An error shown to the user where the action was taken, with the service's code. */
export interface Notice {
  id: number;
  code: string;
  message: string;
  /** What was being done ("Purge .\private$\orders"). */
  where: string;
}

export interface ConnectionSlice {
  computers: ComputerEntry[];
  notices: Notice[];
  /** Subscribes to the local computer's events and loads everything. */
  start(): Promise<void>;
  connectComputer(url: string, token: string): Promise<void>;
  disconnectComputer(key: string): void;
  refreshStatus(key: string): Promise<void>;
  markConnected(key: string, connected: boolean): void;
  /** Reloads one computer's queues, status, settings (and its open list). */
  refreshComputer(key: string): Promise<void>;
  /** F5: queues, status, settings and the open list, for every computer. */
  refreshAll(): Promise<void>;
  reportError(where: string, error: unknown): void;
  dismissNotice(id: number): void;
}

export interface TreeSlice {
  queues: Record<string, QueueInfo[]>;
  expanded: Record<string, boolean>;
  selectedNodeId: string | null;
  /**
   * The item selected in the result pane of a folder (a queue in Private Queues, a system queue in System
   * Queues), as a tree node ID: what the toolbar, the Action menu, the Actions pane and its context menu act
   * on (MMC's selection model). Cleared when another tree node is selected.
   */
  resultSelection: string | null;
  selectResultItem(nodeId: string | null): void;
  refreshQueues(computer: string): Promise<void>;
  setExpanded(nodeId: string, expanded: boolean): void;
  selectNode(nodeId: string): void;
  /** Reveals and selects a message list node (expands its ancestors). */
  revealNode(nodeId: string): void;
  applyCounts(
    computer: string,
    counts: { path: string; messageCount: number; bytes: number; journalMessageCount: number; journalBytes: number },
  ): void;
  createQueue(computer: string, input: QueueCreateRequest): Promise<QueueInfo>;
  updateQueue(computer: string, input: QueueUpdateRequest): Promise<QueueInfo>;
  deleteQueue(computer: string, path: string): Promise<void>;
  /**
   * A queue went (another program deleted it, an emptied subqueue closed, R-S1): a selection on it moves to
   * its parent node, as MMC's does, so the list stops reading a queue that is not there.
   */
  leaveDeletedQueue(computer: string, path: string): void;
  purgeQueue(computer: string, path: string): Promise<number>;
}

export interface QueueCreateRequest {
  path: string;
  transactional?: boolean;
  journal?: boolean;
  quotaKB?: number | null;
  journalQuotaKB?: number | null;
  label?: string;
  retention?: boolean;
}
export type QueueUpdateRequest = Omit<QueueCreateRequest, 'transactional'>;

/** A dialog the console has open (one at a time, as modal property sheets are). */
export type Dialog =
  | { kind: 'messageProperties'; computer: string; path: string; lookupId: number }
  | { kind: 'queueProperties'; computer: string; path: string }
  | { kind: 'computerProperties'; computer: string }
  | { kind: 'newQueue'; computer: string; queueType: 'private' | 'public' }
  | {
      kind: 'sendTest';
      computer: string;
      path: string;
      /**
       * Start from an existing message (QueueExplorer's tools): 'resend' = edit and resend, the original
       * deleted once the new one is sent; 'copy' = send a copy, the original kept.
       */
      from?: { path: string; lookupId: number; mode: 'resend' | 'copy' };
    }
  | { kind: 'move'; computer: string; path: string }
  | ConfirmRequest
  | { kind: 'columns' }
  | { kind: 'connect' }
  | { kind: 'import'; computer: string; path: string }
  | { kind: 'about' }
  | { kind: 'customizeView' }
  | { kind: 'moveToSubqueue'; computer: string; path: string }
  | { kind: 'cursor'; computer: string; path: string }
  | { kind: 'search'; computer: string };

/**
 * A confirmation. Every action that loses data asks with one (issue 12): it names what will be lost and,
 * being `destructive`, has Cancel as its default button.
 */
export interface ConfirmRequest {
  kind: 'confirm';
  title: string;
  text: string;
  /** Further lines: what exactly is lost, where. */
  details?: string[];
  confirmLabel: string;
  /** Loses data: Cancel is the default button and the confirm button is marked. */
  destructive?: boolean;
  onConfirm: () => void;
}

/** The message properties sheet's data. */
export interface MessageDetails {
  computer: string;
  path: string;
  message: MessageInfo | null;
  /** When `message` was read (this computer's clock): remaining timers count down from here. */
  readAt: number;
  /** For an original: every ACK/NACK naming it. */
  acknowledgments: MessageLocation[] | null;
  /** For an ACK/NACK: where its original is now ([] = no longer on this computer). */
  originals: MessageLocation[] | null;
  error: string | null;
  /** Set when the message left its queue while the sheet was open (another program received it…). */
  gone: string | null;
}

export interface DetailsSlice {
  /** Open dialogs, bottom first: a confirmation can open over a property sheet (Restart from Computer Properties). */
  dialogs: Dialog[];
  /** The top dialog (the one that has the keyboard), or null. */
  dialog: Dialog | null;
  details: MessageDetails | null;
  /** Opens a dialog over whatever is open. */
  openDialog(dialog: Dialog): void;
  /** Closes the top dialog; the one below (if any) gets the keyboard back. */
  closeDialog(): void;
  openMessageProperties(computer: string, path: string, lookupId: number): Promise<void>;
  /** Jumps to a message wherever it is: selects its queue node and opens its properties. */
  goToMessage(computer: string, location: MessageLocation): Promise<void>;
  /** A message left a queue (event): flags the open properties sheet when it is that message. */
  messageLeft(computer: string, path: string, lookupId: number, reason: string): void;
  /** A queue changed in bulk (no per-message events): checks whether the open message is still there. */
  recheckDetails(computer: string, path: string): Promise<void>;
}

export interface SettingsSlice {
  settings: Record<string, SettingInfo[]>;
  refreshSettings(computer: string): Promise<void>;
  /** null makes a setting that may be absent (XactDelayReceiveNack) absent again. */
  changeSetting(computer: string, name: string, value: number | null): Promise<SettingInfo>;
  restartService(computer: string): Promise<void>;
  /** What a restart would lose now (express messages per queue), asked before restarting. */
  restartImpact(computer: string): Promise<RestartImpact>;
}

/** The service's answer to serviceRestartImpact. */
export type RestartImpact = OperationOutput<'serviceRestartImpact'>;

/** A long operation shown in the status bar with progress and Cancel. */
export interface Job {
  id: number;
  title: string;
  total: number | null;
  done: number;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  /** Items that failed (resend that NACKs again, move into a full queue…), with their codes. */
  failures: Array<{ item: string; code: string; message: string }>;
  summary: string | null;
}

/** What a job's work function gets. */
export interface JobContext {
  signal: AbortSignal;
  setTotal(total: number): void;
  progress(done: number): void;
  fail(item: string, code: string, message: string): void;
}

export interface JobsSlice {
  jobs: Job[];
  /** Runs work as a job; the returned string is its summary. Resolves when the job ends. */
  runJob(title: string, work: (ctx: JobContext) => Promise<string>): Promise<Job>;
  cancelJob(id: number): void;
  dismissJob(id: number): void;
}

/** The whole store. */
export type AppState = ConnectionSlice &
  TreeSlice &
  ListSlice &
  DetailsSlice &
  SettingsSlice &
  JobsSlice &
  MessageActions &
  TransferActions &
  FileActions &
  ColumnsSlice &
  ViewSlice &
  TrafficSlice &
  NetworkSlice;

/** Bulk message actions (jobs over the selection) and single-message reads and sends. */
export interface MessageActions {
  /** Deletes these messages of the list's queue: the selection as its confirmation counted it. */
  deleteSelected(lookupIds: readonly number[]): Promise<Job | null>;
  resendDeadLetters(): Promise<Job | null>;
  sendTestMessage(computer: string, path: string, message: SendProperties, transactional: boolean): Promise<string>;
  /**
   * Whether the message sent with this ID is now where it was sent (the queue, its journal, or the outgoing
   * queue to another computer): a send returns an ID even when the arrival is refused (R-A5, a NACK or a
   * dead letter, not an error).
   */
  arrivedWhereSent(computer: string, id: string, destination: string): Promise<boolean>;
  /** Messages matching a filter in every queue of a computer (Search all queues). */
  searchMessages(
    computer: string,
    filter: OperationInput<'messagesSearch'>['filter'],
  ): Promise<OperationOutput<'messagesSearch'>>;
  /** Deletes the given messages of a queue (Edit and resend removes its original this way). */
  deleteMessages(computer: string, path: string, lookupIds: number[]): Promise<number>;
  /** One message with its body (for Copy body, Save body, Edit and resend). */
  fetchMessage(computer: string, path: string, lookupId: number): Promise<MessageInfo>;
  /** A cursor on a queue (R-C2), for walking it; close it when done. */
  cursorOpen(computer: string, path: string): Promise<string>;
  /** The cursor's message ('current') or the next one; IO_TIMEOUT when none comes within timeoutMs. */
  cursorPeek(computer: string, cursor: string, action: 'current' | 'next', timeoutMs: number): Promise<MessageInfo>;
  /** Receives the message under the cursor; the cursor then stands after it (R-C3). */
  cursorReceive(computer: string, cursor: string): Promise<MessageInfo>;
  /** Closes a cursor (a failure is reported, nothing else depends on it). */
  cursorClose(computer: string, cursor: string): void;
}

/** Messages copied with Ctrl+C, to be pasted into another queue of the same computer. */
export interface MessageClipboard {
  computer: string;
  path: string;
  lookupIds: number[];
  /** "3 messages from orders". */
  caption: string;
}

/** Moving and copying messages between queues (Move, Copy and Paste, drag and drop). */
export interface TransferActions {
  clipboard: MessageClipboard | null;
  moveSelected(target: string): Promise<Job | null>;
  copySelected(target: string): Promise<Job | null>;
  /** Ctrl+C: the selected messages (every one under Ctrl+A) go to the clipboard. */
  copyToClipboard(): Promise<void>;
  /** Ctrl+V: copies of the clipboard's messages into a queue of the same computer. */
  pasteInto(computer: string, path: string): Promise<Job | null>;
  /**
   * MSMQ's MoveMessage (R-S3): the selection into a subqueue of its queue (opened on first use), or from a
   * subqueue back to its queue or a sibling; each message's move count goes up.
   */
  moveWithinQueue(target: string): Promise<Job | null>;
  /** Rejects the selection (R-S8): each leaves its queue; senders that asked get NACK_RECEIVE_REJECTED. */
  rejectSelected(lookupIds: readonly number[]): Promise<Job | null>;
}

/** Export and Import in the message file format (docs/message-file-format.md). */
export interface FileActions {
  /** The selected messages, or every message of the queue, as a message file. */
  exportMessages(
    computer: string,
    path: string,
    which: 'selection' | 'all',
  ): Promise<{ fileName: string; text: string } | null>;
  /**
   * Stores messages read from a file: 'asNew' sends each as a new message (class NORMAL, sent now, timers
   * from now); 'asIs' keeps them as they were (ID, class, times, counts).
   */
  importMessages(computer: string, path: string, messages: ExportedMessage[], mode: ImportMode): Promise<Job | null>;
}
