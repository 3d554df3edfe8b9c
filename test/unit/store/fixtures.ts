/** What the store's tests share: data folders removed after each test, and a message record to insert. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { MessageRecord } from '@qk/store';

/** Makes fresh data folders named `prefix…`; every one is removed after each test of the calling file. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** A plain ready recoverable message of `queueId` (no acknowledgment, journal, timer to be received or move). */
export function messageRecord(lookupId: number, queueId: number, extra: Partial<MessageRecord> = {}): MessageRecord {
  return {
    lookupId,
    queueId,
    status: 1,
    priority: 3,
    msgId: `{a}\\${lookupId}`,
    classCode: 0,
    label: `m${lookupId}`,
    body: Buffer.from(`body ${lookupId}`),
    size: 130,
    bodySize: 6,
    delivery: 1,
    journal: 0,
    ack: 0,
    adminQueue: null,
    responseQueue: null,
    destQueue: '.\\private$\\q',
    correlationId: null,
    appSpecific: 0,
    sourceMachine: 'A',
    sourceMachineId: 'a',
    sentMs: 1_000,
    arrivedMs: 1_001,
    timerBaseMs: 1_001,
    ttrq: 345_600,
    ttbr: null,
    expiresMs: null,
    transactional: false,
    conversation: null,
    moveCount: 0,
    abortCount: 0,
    lastMoveMs: null,
    deadLetterQueue: null,
    ...extra,
  };
}
