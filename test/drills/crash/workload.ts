/**
 * One crash-drill client: a loop of random operations against the service — recoverable sends (single and
 * batches), plain and transactional receives (single and batches), transactions that receive and send and then
 * commit or abort, purges — each reported to the ledger as it starts and ends. The loop ends at the first call
 * that gets no reply: the service is gone.
 */
import type { ApiSession, CallOutcome } from '../support/api.js';
import type { Random } from '../support/random.js';
import type { Ledger, QueueKey } from './ledger.js';

/** What the workload saw, over all clients and trials. */
export interface WorkloadStats {
  calls: Record<string, number>;
  /** Refusals by code (IO_TIMEOUT on an empty queue is the common one). */
  refused: Record<string, number>;
  /** Answers outside the contract's envelope, and INTERNAL errors: findings. */
  malformed: string[];
  internal: string[];
}

export function emptyStats(): WorkloadStats {
  return { calls: {}, refused: {}, malformed: [], internal: [] };
}

export interface ClientContext {
  api: ApiSession;
  ledger: Ledger;
  random: Random;
  paths: Record<QueueKey, string>;
  stats: WorkloadStats;
  /** Unique prefix of this client's tags in this trial. */
  prefix: string;
  /** The client's first operation, so that every kind runs in every trial however slow the machine is. */
  first: Op;
}

interface MessageInfo {
  label: string;
}

/** Thrown when a call gets no reply: the client stops. */
class ServiceGone extends Error {}

const WEIGHTS = {
  sendPlain: 12,
  sendPurge: 4,
  sendXact: 8,
  batchPlain: 5,
  batchXact: 3,
  receivePlain: 12,
  receiveBatchPlain: 4,
  receiveXactSingle: 6,
  transaction: 9,
  purge: 1,
  browse: 2,
} as const;

export type Op = keyof typeof WEIGHTS;
export const OP_NAMES = Object.keys(WEIGHTS) as Op[];

const CALL_TIMEOUT_MS = 30_000;

export async function runClient(ctx: ClientContext): Promise<void> {
  let seq = 0;
  const nextTag = (): string => `${ctx.prefix}-${++seq}`;
  try {
    await OPS[ctx.first](ctx, nextTag);
    for (;;) await OPS[ctx.random.weighted(WEIGHTS)](ctx, nextTag);
  } catch (error) {
    if (!(error instanceof ServiceGone)) throw error;
  }
}

async function call<T>(ctx: ClientContext, name: string, op: string, input: unknown): Promise<CallOutcome<T>> {
  ctx.stats.calls[name] = (ctx.stats.calls[name] ?? 0) + 1;
  const outcome = await ctx.api.call<T>(op, input, { timeoutMs: CALL_TIMEOUT_MS });
  if (outcome.kind === 'refused') {
    ctx.stats.refused[outcome.code] = (ctx.stats.refused[outcome.code] ?? 0) + 1;
    if (outcome.code === 'INTERNAL') ctx.stats.internal.push(`${op}: ${outcome.message}`);
  }
  if (outcome.kind === 'malformed') ctx.stats.malformed.push(`${op}: ${outcome.status} ${outcome.text}`);
  return outcome;
}

/** The outcome as the ledger records it; a malformed answer is a finding and leaves the call in doubt. */
function verdict(outcome: CallOutcome): 'ok' | 'refused' | 'no-reply' {
  if (outcome.kind === 'ok' || outcome.kind === 'refused') return outcome.kind;
  return 'no-reply';
}

function gone(outcome: CallOutcome): boolean {
  return outcome.kind === 'no-reply' || outcome.kind === 'malformed';
}

function body(ctx: ClientContext, tag: string): string {
  return `${tag}:${'x'.repeat(ctx.random.int(0, 1500))}`;
}

function recoverable(ctx: ClientContext, tag: string): { label: string; body: string; delivery: 'recoverable' } {
  return { label: tag, body: body(ctx, tag), delivery: 'recoverable' };
}

async function sendOne(ctx: ClientContext, tag: string, queue: QueueKey, name: string): Promise<void> {
  const tags = ctx.ledger.sendStarted([{ tag, queue }]);
  const transactional = queue === 'xact' ? { transactional: true } : {};
  const outcome = await call(ctx, name, 'send', {
    path: ctx.paths[queue],
    message: recoverable(ctx, tag),
    ...transactional,
  });
  ctx.ledger.sendEnded(tags, verdict(outcome));
  if (gone(outcome)) throw new ServiceGone();
}

async function sendBatch(ctx: ClientContext, nextTag: () => string, xact: boolean): Promise<void> {
  const items = Array.from({ length: ctx.random.int(2, 10) }, (): { tag: string; queue: QueueKey } => ({
    tag: nextTag(),
    queue: xact ? 'xact' : ctx.random.chance(0.7) ? 'plain' : 'purge',
  }));
  const tags = ctx.ledger.sendStarted(items);
  const outcome = await call(ctx, xact ? 'sendBatch xact' : 'sendBatch', 'sendBatch', {
    messages: items.map((i) => ({
      path: ctx.paths[i.queue],
      message: recoverable(ctx, i.tag),
      ...(xact ? { transactional: true } : {}),
    })),
  });
  ctx.ledger.sendEnded(tags, verdict(outcome));
  if (gone(outcome)) throw new ServiceGone();
}

/** A receive that is not part of a multi-call transaction: its reply is the moment the message is taken. */
async function receiveNow(ctx: ClientContext, queue: QueueKey, xact: boolean): Promise<void> {
  const waits = ctx.random.chance(0.2) ? ctx.random.int(50, 400) : 0;
  const outcome = await call<MessageInfo>(ctx, xact ? 'receive xact' : 'receive', 'receive', {
    path: ctx.paths[queue],
    timeoutMs: waits,
    ...(xact ? { transactional: true } : {}),
  });
  if (outcome.kind === 'ok') ctx.ledger.received(outcome.value.label, undefined, xact ? 'receive xact' : 'receive');
  if (gone(outcome)) {
    ctx.ledger.receiveInterrupted(queue, 1);
    throw new ServiceGone();
  }
}

async function receiveBatch(ctx: ClientContext): Promise<void> {
  const max = ctx.random.int(2, 6);
  const outcome = await call<{ messages: MessageInfo[] }>(ctx, 'receiveBatch', 'receiveBatch', {
    path: ctx.paths.plain,
    max,
    timeoutMs: 0,
  });
  if (outcome.kind === 'ok')
    for (const m of outcome.value.messages) ctx.ledger.received(m.label, undefined, 'receiveBatch');
  if (gone(outcome)) {
    ctx.ledger.receiveInterrupted('plain', max);
    throw new ServiceGone();
  }
}

/** Begin; receive a few and maybe send a few in it; hold it a moment; commit (two in three) or abort. */
async function transaction(ctx: ClientContext, nextTag: () => string): Promise<void> {
  const begun = await call<{ transaction: string }>(ctx, 'transactionBegin', 'transactionBegin', {});
  if (gone(begun)) throw new ServiceGone();
  if (begun.kind !== 'ok') return;
  const id = begun.value.transaction;
  ctx.ledger.txBegun(id);
  for (let i = ctx.random.int(1, 3); i > 0; i--) {
    const outcome = await call<MessageInfo>(ctx, 'receive in transaction', 'receive', {
      path: ctx.paths.xact,
      timeoutMs: 0,
      transaction: id,
    });
    // No reply: the transaction stays open and the crash aborts it; what it took must come back.
    if (gone(outcome)) throw new ServiceGone();
    if (outcome.kind !== 'ok') break;
    ctx.ledger.received(outcome.value.label, id, 'receive in transaction');
  }
  for (let i = ctx.random.chance(0.5) ? ctx.random.int(1, 2) : 0; i > 0; i--) {
    const tag = nextTag();
    const tags = ctx.ledger.sendStarted([{ tag, queue: 'xact' }], id);
    const outcome = await call(ctx, 'send in transaction', 'send', {
      path: ctx.paths.xact,
      message: recoverable(ctx, tag),
      transaction: id,
    });
    ctx.ledger.sendEnded(tags, verdict(outcome));
    if (gone(outcome)) throw new ServiceGone();
  }
  if (ctx.random.chance(0.3)) await new Promise((resolve) => setTimeout(resolve, ctx.random.int(10, 200)));
  if (ctx.random.chance(2 / 3)) {
    ctx.ledger.txCommitSent(id);
    const outcome = await call(ctx, 'transactionCommit', 'transactionCommit', { transaction: id });
    ctx.ledger.txCommitEnded(id, verdict(outcome));
    if (gone(outcome)) throw new ServiceGone();
  } else {
    ctx.ledger.txAborted(id);
    const outcome = await call(ctx, 'transactionAbort', 'transactionAbort', { transaction: id });
    if (gone(outcome)) throw new ServiceGone();
  }
}

async function purge(ctx: ClientContext): Promise<void> {
  const record = ctx.ledger.purgeStarted('purge');
  const outcome = await call(ctx, 'queuePurge', 'queuePurge', { path: ctx.paths.purge });
  ctx.ledger.purgeEnded(record, verdict(outcome));
  if (gone(outcome)) throw new ServiceGone();
}

async function browse(ctx: ClientContext): Promise<void> {
  const path = ctx.paths[ctx.random.pick(['plain', 'xact', 'purge'] as const)];
  const outcome = await call(ctx, 'browse', 'browse', { path, limit: 100 });
  if (gone(outcome)) throw new ServiceGone();
}

const OPS: Record<Op, (ctx: ClientContext, nextTag: () => string) => Promise<void>> = {
  sendPlain: (ctx, next) => sendOne(ctx, next(), 'plain', 'send'),
  sendPurge: (ctx, next) => sendOne(ctx, next(), 'purge', 'send'),
  sendXact: (ctx, next) => sendOne(ctx, next(), 'xact', 'send xact'),
  batchPlain: (ctx, next) => sendBatch(ctx, next, false),
  batchXact: (ctx, next) => sendBatch(ctx, next, true),
  receivePlain: (ctx) => receiveNow(ctx, 'plain', false),
  receiveBatchPlain: (ctx) => receiveBatch(ctx),
  receiveXactSingle: (ctx) => receiveNow(ctx, 'xact', true),
  transaction: (ctx, next) => transaction(ctx, next),
  purge: (ctx) => purge(ctx),
  browse: (ctx) => browse(ctx),
};
