/**
 * Several queue managers in one process joined by hand: what core/network does over TLS, done here by calling
 * one engine's NetworkPort with another's leases, so the engine's rules are tested without sockets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openQueueManager, type DeliveryOutcome, type OutboundLease, type QueueManagerApi } from '@qk/engine';
import { afterEach, beforeEach } from 'vitest';
import { FakeClock } from './fake-clock.js';
import { settle } from './helpers.js';

export interface Computer {
  name: string;
  qm: QueueManagerApi;
  dir: string;
  routing: boolean;
}

export class Lab {
  readonly clock = new FakeClock();
  readonly computers = new Map<string, Computer>();

  open(name: string, options: { routing?: boolean } = {}): Computer {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `qk-net-${name.toLowerCase()}-`));
    const computer = {
      name,
      dir,
      routing: options.routing === true,
      qm: openQueueManager({ dataDir: dir, name, clock: this.clock }),
    };
    this.computers.set(name, computer);
    return computer;
  }

  get(name: string): Computer {
    const c = this.computers.get(name);
    if (!c) throw new Error(`no computer ${name}`);
    return c;
  }

  async reopen(name: string): Promise<void> {
    const c = this.get(name);
    await c.qm.close();
    c.qm = openQueueManager({ dataDir: c.dir, name, clock: this.clock });
  }

  /** One lease of `formatName` from `from`, delivered to `to`; returns the outcomes (undefined when nothing was ready). */
  async hop(
    from: string,
    to: string,
    formatName: string,
    options: { lose?: boolean } = {},
  ): Promise<DeliveryOutcome[] | undefined> {
    const a = this.get(from);
    const b = this.get(to);
    const lease: OutboundLease | null = a.qm.networkPort.lease(formatName, 256, 1 << 20);
    if (!lease) return undefined;
    const outcomes = await b.qm.networkPort.deliver({ name: a.name, id: a.qm.id }, lease.messages, b.routing);
    // A lost confirmation: the next hop stored what it stored, the sender never hears of it.
    if (options.lose) a.qm.networkPort.release(lease);
    else await a.qm.networkPort.settle(lease, outcomes);
    await settle();
    return outcomes;
  }

  /** Moves everything `from` has for `formatName` to `to`, lease after lease (bounded). */
  async drain(from: string, to: string, formatName: string): Promise<DeliveryOutcome[]> {
    const all: DeliveryOutcome[] = [];
    for (let i = 0; i < 100; i++) {
      const outcomes = await this.hop(from, to, formatName);
      if (!outcomes) break;
      all.push(...outcomes);
    }
    return all;
  }

  /** Hands the control items `from` owes to computers reached through `to`. */
  async control(from: string, to: string, reaches: (computer: string) => boolean = () => true): Promise<number> {
    const a = this.get(from);
    const b = this.get(to);
    const pending = a.qm.networkPort.pendingControl(reaches, 1000);
    if (!pending) return 0;
    await b.qm.networkPort.receiveControl(pending.items, b.routing);
    a.qm.networkPort.controlDelivered(pending.handles);
    await settle();
    return pending.items.length;
  }

  /** `from`'s final confirmation of `messageId` (R-A9, R-X8), handed straight to `to` as a control item. */
  async final(from: string, to: string, messageId: string, classCode: number): Promise<void> {
    const a = this.get(from);
    const b = this.get(to);
    await b.qm.networkPort.receiveControl(
      [{ kind: 'final', to: { name: b.name, id: b.qm.id }, from: { name: a.name, id: a.qm.id }, messageId, classCode }],
      b.routing,
    );
  }

  async dispose(): Promise<void> {
    for (const c of this.computers.values()) {
      await c.qm.close();
      fs.rmSync(c.dir, { recursive: true, force: true });
    }
  }
}

export const classOf = (qm: QueueManagerApi, path: string): string[] =>
  qm.browse({ path, limit: 1000 }).messages.map((m) => m.class);

/** A fresh Lab for every test of the file, disposed after it: `const lab = labEachTest();` then `lab()`. */
export function labEachTest(): () => Lab {
  let lab: Lab | undefined;
  beforeEach(() => {
    lab = new Lab();
  });
  afterEach(async () => {
    await lab?.dispose();
    lab = undefined;
  });
  return () => {
    if (!lab) throw new Error('the lab exists only inside a test');
    return lab;
  };
}
