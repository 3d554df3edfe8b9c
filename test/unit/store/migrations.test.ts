import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { arrivalOf, lookupIdFor, Store, STORE_FILE } from '@qk/store';
import { migrations } from '../../../core/store/src/migrations.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A store as version 1 left it, with one message stored then (size = body bytes). */
function versionOneStore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-migrate-'));
  dirs.push(dir);
  const db = new Database(path.join(dir, STORE_FILE));
  db.exec(migrations[0]?.sql ?? '');
  db.pragma('user_version = 1');
  db.pragma(`application_id = ${0x514b5031}`);
  db.prepare(
    `INSERT INTO queues (kind, name, name_key, created_ms, modified_ms) VALUES ('private', 'q', 'q', 1, 1)`,
  ).run();
  db.prepare(
    `INSERT INTO messages (lookup_id, queue_id, status, priority, msg_id, class, label, body, size, delivery, journal, ack,
       admin_queue, response_queue, dest_queue, correlation_id, app_specific, source_machine, source_machine_id,
       sent_ms, arrived_ms, ttrq, ttbr, expires_ms, transactional, conversation)
     VALUES (7, 1, 1, 3, '{a}\\1', 0, 'label', X'0102030405', 5, 1, 0, 0, '.\\private$\\adm', NULL, '.\\private$\\q', NULL,
       0, 'ALPHA', 'a', 1000, 1500, 345600, 60, 61000, 0, 'c1')`,
  ).run();
  db.close();
  return dir;
}

test('migration 2 keeps every version-1 message and counts it as stored: 124-byte header, body, UTF-16 strings', () => {
  const dir = versionOneStore();
  const store = Store.open(dir);
  try {
    const m = store.messages.get(lookupIdFor(7, 3));
    const strings = 'label'.length + '.\\private$\\q'.length + '.\\private$\\adm'.length + 'c1'.length;
    expect(m).toMatchObject({
      bodySize: 5,
      size: 124 + 5 + 2 * strings,
      timerBaseMs: 1000,
      moveCount: 0,
      abortCount: 0,
      lastMoveMs: null,
      deadLetterQueue: null,
      expiresMs: 61000,
    });
    expect(store.messages.usage()).toEqual([{ queueId: 1, count: 1, bytes: 124 + 5 + 2 * strings, retained: 0 }]);
  } finally {
    store.close();
  }
});

test('the in-memory table of express messages has the same columns as the durable one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-migrate-'));
  dirs.push(dir);
  const store = Store.open(dir);
  try {
    const row = {
      lookupId: 1,
      queueId: 1,
      status: 1,
      priority: 3,
      msgId: '{a}\\2',
      classCode: 0,
      label: '',
      body: Buffer.from('x'),
      size: 200,
      bodySize: 1,
      delivery: 0,
      journal: 0,
      ack: 0,
      adminQueue: null,
      responseQueue: null,
      destQueue: 'q',
      correlationId: null,
      appSpecific: 0,
      sourceMachine: 'A',
      sourceMachineId: 'a',
      sentMs: 1,
      arrivedMs: 1,
      timerBaseMs: 1,
      ttrq: 1,
      ttbr: null,
      expiresMs: null,
      transactional: false,
      conversation: null,
      moveCount: 2,
      abortCount: 1,
      lastMoveMs: 5,
      deadLetterQueue: 'd',
    };
    store.messages.insert('mem', row);
    expect(store.messages.get(1)).toEqual({ ...row, table: 'mem' });
  } finally {
    store.close();
  }
});

test('migration 6 keeps the transit rows of version 5 (R-E3): their previous number is none, the number before', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-migrate-'));
  dirs.push(dir);
  const db = new Database(path.join(dir, STORE_FILE));
  for (const migration of migrations.filter((m) => m.version <= 5)) db.exec(migration.sql);
  db.pragma('user_version = 5');
  db.pragma(`application_id = ${0x514b5031}`);
  db.prepare(`INSERT INTO transit (lookup_id, hops, stream, seq, grp) VALUES (7, 1, 's', 3, 'g')`).run();
  db.close();
  const store = Store.open(dir);
  try {
    expect(store.delivery.transitOf('main', [7]).get(7)).toEqual({
      lookupId: 7,
      hops: 1,
      stream: 's',
      seq: 3,
      group: 'g',
      previous: null,
    });
    store.transaction(() => store.delivery.setTransitPrevious(7, 1));
    expect(store.delivery.transitOf('main', [7]).get(7)?.previous).toBe(1);
  } finally {
    store.close();
  }
});

test('migration 7 renumbers stored lookup IDs in queue order (R-L1), their transit rows with them', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qk-migrate-'));
  dirs.push(dir);
  const db = new Database(path.join(dir, STORE_FILE));
  for (const migration of migrations.filter((m) => m.version <= 6)) db.exec(migration.sql);
  db.pragma('user_version = 6');
  db.pragma(`application_id = ${0x514b5031}`);
  db.prepare(
    `INSERT INTO queues (kind, name, name_key, created_ms, modified_ms) VALUES ('private', 'q', 'q', 1, 1)`,
  ).run();
  // Version 6 numbered by arrival: a low-priority message, then a normal one, then an urgent one.
  const insert = db.prepare(
    `INSERT INTO messages (lookup_id, queue_id, status, priority, msg_id, class, label, body, size, delivery, journal, ack,
       dest_queue, app_specific, source_machine, source_machine_id, sent_ms, arrived_ms, ttrq, transactional)
     VALUES (?, 1, 1, ?, ?, 0, '', X'00', 125, 1, 0, 0, 'q', 0, 'A', 'a', 1, 1, 345600, 0)`,
  );
  insert.run(1, 0, '{a}\\1');
  insert.run(2, 3, '{a}\\2');
  insert.run(3, 7, '{a}\\3');
  db.prepare(`INSERT INTO transit (lookup_id, hops, stream, seq, grp) VALUES (2, 1, 's', 3, 'g')`).run();
  db.close();
  const store = Store.open(dir);
  try {
    const inQueueOrder = store.messages.neighbors(1, null, true, 10);
    expect(inQueueOrder.map((m) => m.priority)).toEqual([7, 3, 0]);
    const ids = inQueueOrder.map((m) => m.lookupId);
    expect(ids).toEqual([lookupIdFor(3, 7), lookupIdFor(2, 3), lookupIdFor(1, 0)]);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(ids.map(arrivalOf)).toEqual([3, 2, 1]);
    expect(store.messages.get(lookupIdFor(2, 3))?.msgId).toBe('{a}\\2');
    expect(store.delivery.transitOf('main', [lookupIdFor(2, 3)]).get(lookupIdFor(2, 3))?.seq).toBe(3);
    // The arrival counter starts above every stored arrival number, whatever the priority.
    expect(store.messages.maxArrival()).toBe(3);
  } finally {
    store.close();
  }
});
