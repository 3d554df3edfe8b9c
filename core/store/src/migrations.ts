/**
 * Numbered, append-only schema migrations. Never edit a shipped entry: add the next one. The version a
 * store is at lives in `PRAGMA user_version`.
 */
import { ARRIVALS_PER_PRIORITY } from './lookup-ids.js';

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/**
 * Hops and sequence numbers of messages waiting in outgoing queues (docs/network.md); one row per such
 * message, in the same database as the message (express ones in memory). Rows of messages that left are
 * removed with them or by the periodic cleanup; lookup IDs are never reused, so a stale row never applies.
 */
export function transitTableSql(schema: 'main' | 'mem'): string {
  return `
    CREATE TABLE ${schema}.transit (
      lookup_id INTEGER PRIMARY KEY,
      hops INTEGER NOT NULL,
      stream TEXT,
      seq INTEGER,
      grp TEXT
    );
  `;
}

/**
 * The previous number a transactional message in transit came with (R-E3: the source's greatest number below it
 * that may still arrive; null = it came without one, its number minus one), kept so a routing server passes it on.
 * Migration 6 adds the column to the durable table; the in-memory one gets it where it is made (open-database.ts).
 */
export function transitPreviousSql(schema: 'main' | 'mem'): string {
  return `ALTER TABLE ${schema}.transit ADD COLUMN prev INTEGER;`;
}

/** The messages table; the same shape serves the durable store and the in-memory one for express messages. */
export function messagesTableSql(schema: 'main' | 'mem'): string {
  return `
    CREATE TABLE ${schema}.messages (
      lookup_id INTEGER PRIMARY KEY,
      queue_id INTEGER NOT NULL,
      status INTEGER NOT NULL,
      priority INTEGER NOT NULL,
      msg_id TEXT NOT NULL,
      class INTEGER NOT NULL,
      label TEXT NOT NULL,
      body BLOB NOT NULL,
      size INTEGER NOT NULL,
      delivery INTEGER NOT NULL,
      journal INTEGER NOT NULL,
      ack INTEGER NOT NULL,
      admin_queue TEXT,
      response_queue TEXT,
      dest_queue TEXT NOT NULL,
      correlation_id TEXT,
      app_specific INTEGER NOT NULL,
      source_machine TEXT NOT NULL,
      source_machine_id TEXT NOT NULL,
      sent_ms INTEGER NOT NULL,
      arrived_ms INTEGER NOT NULL,
      ttrq INTEGER NOT NULL,
      ttbr INTEGER,
      expires_ms INTEGER,
      transactional INTEGER NOT NULL,
      conversation TEXT
    );
    -- Receive order of ready messages (R-O1): the one index every send and receive pays for.
    CREATE INDEX ${schema}.messages_ready ON messages(queue_id, priority DESC, lookup_id) WHERE status = 1;
    -- Retained messages (status 0 and 3) are few and only browsed, purged or ended with their conversation.
    CREATE INDEX ${schema}.messages_retained ON messages(queue_id, lookup_id) WHERE status <> 1;
    CREATE INDEX ${schema}.messages_expiry ON messages(expires_ms) WHERE expires_ms IS NOT NULL;
    CREATE INDEX ${schema}.messages_correlation ON messages(correlation_id) WHERE correlation_id IS NOT NULL;
    CREATE INDEX ${schema}.messages_conversation ON messages(conversation) WHERE conversation IS NOT NULL;
  `;
}

/**
 * The columns migration 3 adds to a messages table. The in-memory table of express messages is created with
 * migration 1's shape and then given these, so both tables always have the same columns in the same order.
 */
function messagesTableV3Sql(schema: 'main' | 'mem'): string {
  return `
    ALTER TABLE ${schema}.messages ADD COLUMN body_size INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ${schema}.messages ADD COLUMN timer_base_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ${schema}.messages ADD COLUMN move_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ${schema}.messages ADD COLUMN abort_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ${schema}.messages ADD COLUMN last_move_ms INTEGER;
    ALTER TABLE ${schema}.messages ADD COLUMN dead_letter_queue TEXT;
  `;
}

/** Every change of the messages table after migration 1, for the in-memory table. */
export function messagesTableChangesSql(schema: 'main' | 'mem'): string {
  return messagesTableV3Sql(schema);
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'computer identity, queues, messages, settings',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE queues (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        parent_id INTEGER REFERENCES queues(id) ON DELETE CASCADE,
        number INTEGER,
        guid TEXT,
        transactional INTEGER NOT NULL DEFAULT 0,
        journal INTEGER NOT NULL DEFAULT 0,
        quota_kb INTEGER,
        journal_quota_kb INTEGER,
        label TEXT NOT NULL DEFAULT '',
        retention INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL,
        modified_ms INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX queues_name ON queues(kind, name_key);
      CREATE TABLE settings (name TEXT PRIMARY KEY, value INTEGER NOT NULL, pending INTEGER) WITHOUT ROWID;
      ${messagesTableSql('main')}
    `,
  },
  {
    version: 2,
    description: 'many computers: trusted peers, routes, the hold state of outgoing queues',
    sql: `
      CREATE TABLE peers (
        name_key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        address TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        added_ms INTEGER NOT NULL,
        last_connected_ms INTEGER
      ) WITHOUT ROWID;
      CREATE TABLE routes (
        destination_key TEXT PRIMARY KEY,
        destination TEXT NOT NULL,
        via TEXT NOT NULL
      ) WITHOUT ROWID;
      -- Keyed by the outgoing queue's name key (its format name, lower case), so a hold outlives the queue
      -- row, which goes and comes with its messages.
      CREATE TABLE outgoing_state (
        name_key TEXT PRIMARY KEY,
        paused INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;
      `,
  },
  {
    version: 3,
    description:
      'stored size (124-byte header + body + UTF-16 strings), body size, timer base (R-X2), move and abort counts (R-S7), per-application dead-letter queue (R-D9)',
    sql: `
      ${messagesTableV3Sql('main')}
      UPDATE messages SET
        body_size = size,
        timer_base_ms = sent_ms,
        size = 124 + size + 2 * (length(label) + length(dest_queue) + coalesce(length(admin_queue), 0)
          + coalesce(length(response_queue), 0) + coalesce(length(conversation), 0));
    `,
  },
  {
    version: 4,
    description:
      'many computers: hops and sequence numbers in transit, sequence state on both ends, sent transactional messages awaiting their final confirmation, confirmations owed to other computers',
    sql: `
      ${transitTableSql('main')}
      -- A destination's sequence acknowledgment confirms every message of its stream up to a number.
      CREATE INDEX transit_stream ON transit(stream, seq) WHERE stream IS NOT NULL;
      -- The source's stream per destination queue (R-E3): its ID, the next number to give, the last one confirmed.
      CREATE TABLE seq_out (
        dest_key TEXT PRIMARY KEY,
        stream TEXT NOT NULL UNIQUE,
        next_seq INTEGER NOT NULL,
        acked INTEGER NOT NULL
      ) WITHOUT ROWID;
      -- The destination's last number accepted per incoming stream: exactly once across restarts.
      CREATE TABLE seq_in (
        stream TEXT PRIMARY KEY,
        source_id TEXT NOT NULL,
        last_seq INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      -- Transactional messages the destination confirmed, kept (whole, as JSON) until the final confirmation
      -- or until their time runs out: then the source dead-letters them (R-D2, R-A9).
      CREATE TABLE xact_sent (
        msg_id TEXT PRIMARY KEY,
        dest_key TEXT NOT NULL,
        final_by_ms INTEGER,
        record TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX xact_sent_due ON xact_sent(final_by_ms) WHERE final_by_ms IS NOT NULL;
      -- Confirmations owed to other computers, sent store-and-forward like messages. A sequence
      -- acknowledgment replaces the earlier one of its stream (dedupe_key).
      CREATE TABLE control_out (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        to_key TEXT NOT NULL,
        dedupe_key TEXT UNIQUE,
        item TEXT NOT NULL,
        created_ms INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    description:
      'logical purge: the bucket each purged queue stores its messages under, and purged buckets still to delete',
    sql: `
      -- Queues whose messages are stored under another number than their id since a purge (buckets.ts).
      CREATE TABLE queue_buckets (queue_id INTEGER PRIMARY KEY, bucket INTEGER NOT NULL UNIQUE);
      -- Purged buckets whose rows are still to be deleted, with what their messages owe as they go (R-P3, R-P6).
      CREATE TABLE dead_buckets (
        bucket INTEGER PRIMARY KEY,
        queue_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        reason TEXT NOT NULL
      );
    `,
  },
  {
    version: 6,
    description:
      'transactional messages in transit keep the previous number of their sequence (R-E3), so a routing server passes it on',
    sql: transitPreviousSql('main'),
  },
  {
    version: 7,
    description:
      'lookup IDs increase in queue order (R-L1): each carries its priority above its arrival number (lookup-ids.ts)',
    // Stored IDs are arrival numbers, all below 2^50; priority 7 keeps its own and the others move up into
    // theirs, where no ID not yet renumbered can be: no key collides on the way. Transit rows first, while
    // their messages can still be found by the old ID.
    sql: `
      UPDATE transit SET lookup_id = lookup_id + ${ARRIVALS_PER_PRIORITY} * (7 - (
        SELECT m.priority FROM messages m WHERE m.lookup_id = transit.lookup_id))
        WHERE EXISTS (SELECT 1 FROM messages m WHERE m.lookup_id = transit.lookup_id);
      UPDATE messages SET lookup_id = lookup_id + ${ARRIVALS_PER_PRIORITY} * (7 - priority);
    `,
  },
];

export const LATEST_SCHEMA_VERSION = migrations[migrations.length - 1]?.version ?? 0;
