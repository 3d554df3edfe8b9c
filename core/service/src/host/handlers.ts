/** One handler per operation of the contract, mapping it onto the queue manager of the host. */
import type { OperationName, OperationOutput, OperationParsedInput } from '@qk/api';
import {
  restartImpact,
  searchMessages,
  type QueueManagerApi,
  type ReplyLimit,
  type StreamReader,
  type WriteReply,
} from '@qk/engine';
import type { NetworkNode } from '@qk/network';
import { QkError, type Envelope, type MessageInfo, type ServiceStatus } from '@qk/model';
import type { TransactionRegistry } from './transaction-registry.js';
import type { StreamRegistry } from './stream-registry.js';

/** What a transport knows about the caller of one operation. */
export interface CallContext {
  /** Fires when the caller went away (HTTP client disconnected, WebSocket closed): waiting receives stop. */
  signal?: AbortSignal | undefined;
  /** The connection that owns transactions begun by this call; undefined = plain HTTP. */
  connectionId?: string | undefined;
  /**
   * Prepares a successful reply for the caller and resolves with the step that writes it (core/engine's
   * Deliver): a receive commits its removal in between. Without it the reply counts as delivered once built
   * (in-process hosts).
   */
  deliver?: ((value: unknown) => Promise<WriteReply>) | undefined;
  /**
   * A streamed call's items and the credit its caller grants (core/rpc's RpcStream), with the call's id on its
   * connection. Absent where the transport carries one reply per call (plain HTTP): streams are refused there.
   */
  stream?: { id: number; reader: StreamReader } | undefined;
  /** The byte cap of a batch reply as this transport carries it. */
  replyLimit?: ReplyLimit | undefined;
  /** Bytes of the request as it came (HTTP: its content length), for the slow-call log. */
  inputBytes?: number | undefined;
}

/** Reads its call's signal only when asked: a call makes its AbortSignal on first read (a receive reads it only if it waits). */
class CallSignal {
  constructor(private readonly context: CallContext) {}

  get signal(): AbortSignal | undefined {
    return this.context.signal;
  }
}

/**
 * A receive's input with its call's signal (read only if it waits) and what the transport adds. Not an object
 * spread with a getter, which took V8 2–3 µs to make, for every receive (issue 11). The signal is a getter of
 * the prototype: whoever takes the input must read it from the object, never copy the object by spreading it.
 */
function withCall<T extends object, E extends object>(
  input: T,
  context: CallContext,
  extra: E,
): T & E & { readonly signal: AbortSignal | undefined } {
  return Object.assign(new CallSignal(context), input, extra);
}

/** Operations whose reply carries messages they take: they wait while the caller is behind in reading. */
export const DELIVERING_OPERATIONS: ReadonlySet<string> = new Set<OperationName>([
  'receive',
  'receiveBatch',
  'cursorReceive',
]);

/** Streams of a host's one in-process connection (Electron's utility host) are keyed by this. */
const IN_PROCESS = 'in-process';

/** Handlers that also see the call context. */
export type ContextualHandlers = {
  [N in OperationName]: (input: OperationParsedInput<N>, context: CallContext) => Promise<OperationOutput<N>>;
};

/** What the handlers need from their host. */
export interface HandlerHost {
  engine(): QueueManagerApi;
  /** This computer's networking; throws SERVICE_NOT_AVAILABLE where the host runs without one. */
  network(): NetworkNode;
  restart(): Promise<ServiceStatus>;
  readonly transactions: TransactionRegistry;
  readonly streams: StreamRegistry;
  /** One operation as the host serves it (validation, the call log, the envelope): sendEach's sends go through it. */
  call(op: OperationName, input: unknown, context: CallContext): Promise<Envelope<unknown>>;
}

/** Builds the handler table; every entry is async so sync engine throws become rejections. */
export function createHandlers(host: HandlerHost): ContextualHandlers {
  const engine = (): QueueManagerApi => host.engine();
  const network = (): NetworkNode => host.network();
  /** The engine's status with the network's part, when this host has a network. */
  const status = (): ServiceStatus => {
    const own = engine().status();
    try {
      return { ...own, ...network().status() };
    } catch {
      // No network started on this host (a host opened without runService): the status has no network part.
      return own;
    }
  };
  const touch = (transaction: string | undefined): void => {
    if (transaction !== undefined) host.transactions.touch(transaction);
  };
  return {
    serviceStatus: async () => status(),
    // The restarted queue manager's status with the network's part (the network and its flags outlive a restart).
    serviceRestart: async () => {
      await host.restart();
      return status();
    },
    // ServiceHost.call asks its host to stop once this reply is on its way (see requestStop).
    serviceStop: async () => ({}),

    queueList: async () => engine().listQueues(),
    queueShow: async ({ path }) => engine().showQueue(path),
    queueCreate: async (input) => engine().createQueue(input),
    queueSet: async (input) => engine().setQueue(input),
    queueDelete: async ({ path }) => {
      await engine().deleteQueue(path);
      return {};
    },
    queuePurge: async ({ path }) => ({ purged: await engine().purgeQueue(path) }),

    send: async ({ path, message, transaction, transactional }) => {
      touch(transaction);
      return { id: await engine().send(path, message, { transaction, transactional }) };
    },
    sendBatch: async ({ messages, transaction }) => {
      touch(transaction);
      return { ids: await engine().sendBatch(messages, transaction) };
    },
    // Each send is the host's own `send` call, so it is checked, answered and logged exactly as one: started in
    // order, its work joins the same group commit as the others' (unit-runner.ts), and one refused send fails alone.
    sendEach: async ({ sends }, context) => ({
      results: (await Promise.all(
        sends.map((send) => host.call('send', send, context)),
      )) as OperationOutput<'sendEach'>['results'],
    }),
    // Receives read the call's signal only if they wait (prepareDelivery): it is made on first read.
    receive: async (input, context) => {
      touch(input.transaction);
      const message = await engine().receive(withCall(input, context, { deliver: context.deliver }));
      touch(input.transaction);
      return message;
    },
    receiveBatch: async (input, context) => {
      touch(input.transaction);
      const { deliver, replyLimit } = context;
      const messages = await engine().receiveBatch(
        withCall(input, context, {
          replyLimit,
          deliver: deliver && ((replies: MessageInfo[]) => deliver({ messages: replies })),
        }),
      );
      touch(input.transaction);
      return { messages };
    },
    peek: async (input, context) => engine().peek(withCall(input, context, {})),
    cursorOpen: async ({ path }) => ({ cursor: engine().openCursor(path) }),
    cursorPeek: async (input, context) => engine().cursorPeek(withCall(input, context, {})),
    cursorReceive: async (input, context) => {
      touch(input.transaction);
      const message = await engine().cursorReceive(withCall(input, context, { deliver: context.deliver }));
      touch(input.transaction);
      return message;
    },
    cursorClose: async ({ cursor }) => {
      engine().closeCursor(cursor);
      return {};
    },
    browse: async (input) => engine().browse(input),
    messageGet: async ({ path, lookupId }) => engine().getMessage(path, lookupId),
    messageDelete: async ({ path, lookupId }) => {
      engine().deleteMessage(path, lookupId);
      return {};
    },
    messagesDelete: async ({ path, lookupIds }) => ({ deleted: engine().deleteMessages(path, lookupIds) }),
    messagesMove: async ({ path, lookupIds, target }) => engine().moveMessages(path, lookupIds, target),
    messageMove: async ({ path, lookupId, target }) => {
      await engine().moveMessage(path, lookupId, target);
      return {};
    },
    messageReject: async ({ path, lookupId }) => {
      await engine().rejectMessage(path, lookupId);
      return {};
    },
    resend: async ({ path, lookupIds }) => engine().resendDeadLetters(path, lookupIds),
    messagesExport: async ({ path, after, limit }) => engine().exportMessages(path, after, limit ?? 1_000),
    messagesImport: async ({ path, messages, mode }) => ({
      imported: await engine().importMessages(path, messages, mode),
    }),
    messageFind: async ({ id }) => engine().findMessage(id),
    acknowledgmentsFor: async ({ id }) => engine().acknowledgmentsFor(id),
    messageArrive: async ({ path, message }) => engine().arrive(path, message),
    conversationEnd: async ({ conversation }) => ({ removed: engine().endConversation(conversation) }),

    transactionBegin: async (_input, { connectionId }) => {
      const transaction = engine().beginTransaction();
      host.transactions.begun(transaction, connectionId);
      return { transaction };
    },
    transactionCommit: async ({ transaction }) => {
      try {
        await engine().commitTransaction(transaction);
      } finally {
        host.transactions.ended(transaction);
      }
      return {};
    },
    transactionAbort: async ({ transaction }) => {
      try {
        engine().abortTransaction(transaction);
      } finally {
        host.transactions.ended(transaction);
      }
      return {};
    },

    traffic: async ({ path, seconds }) => engine().traffic(path, seconds ?? 60),
    queueClassCounts: async ({ path }) => ({ counts: engine().classCounts(path) }),

    settingsList: async () => engine().listSettings(),
    settingsSet: async ({ name, value }) => engine().setSetting(name, value),

    peerAdd: async (input) => network().addPeer(input),
    peerList: async () => network().listPeers(),
    peerRemove: async ({ name }) => {
      network().removePeer(name);
      return {};
    },
    routeSet: async ({ destination, via }) => network().setRoute(destination, via),
    routeList: async () => network().listRoutes(),
    routeRemove: async ({ destination }) => {
      network().removeRoute(destination);
      return {};
    },
    outgoingList: async () => network().listOutgoing(),
    outgoingPause: async ({ formatName }) => network().pause(formatName),
    outgoingResume: async ({ formatName }) => network().resume(formatName),
    serviceDisconnect: async () => {
      network().disconnect();
      return status();
    },
    serviceConnect: async () => {
      network().connect();
      return status();
    },

    // The console's daily tools (core/engine/src/console-tools.ts).
    messagesCopy: async ({ path, lookupIds, target }) => engine().copyMessages(path, lookupIds, target),
    messagesSearch: async ({ filter, limit }) => searchMessages(engine(), filter, limit ?? 200),
    serviceRestartImpact: async () => restartImpact(engine()),

    // The streaming receive (issue 11): messages go out as `item` frames while the caller grants credit.
    consume: async ({ path, transactional, properties, timeoutMs }, { signal, stream, connectionId }) => {
      if (!stream || !signal)
        throw new QkError(
          'INVALID_PARAMETER',
          'consume streams messages as they arrive: call it over the WebSocket channel (/api/v1/ws), not plain HTTP.',
        );
      const consumption = engine().consume({
        path,
        transactional,
        properties,
        timeoutMs,
        reader: stream.reader,
        signal,
      });
      host.streams.track(connectionId ?? IN_PROCESS, stream.id, consumption);
      await consumption.done;
      return { received: consumption.received, timedOut: consumption.timedOut };
    },
    consumeCommit: async ({ stream, count }, { connectionId }) => ({
      committed: await host.streams.get(connectionId ?? IN_PROCESS, stream).commit(count),
    }),
    consumeAbort: async ({ stream }, { connectionId }) => ({
      returned: host.streams.get(connectionId ?? IN_PROCESS, stream).abort(),
    }),
  };
}
