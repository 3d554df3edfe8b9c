/** SQL of the network configuration: trusted peers, routes, and which outgoing queues an administrator holds. */
import type Database from 'better-sqlite3';
import type { Db } from './open-database.js';
import type { PeerRecord, RouteRecord } from './records.js';

interface PeerRow {
  name_key: string;
  name: string;
  address: string;
  fingerprint: string;
  added_ms: number;
  last_connected_ms: number | null;
}

interface RouteRow {
  destination_key: string;
  destination: string;
  via: string;
}

const fromPeerRow = (r: PeerRow): PeerRecord => ({
  nameKey: r.name_key,
  name: r.name,
  address: r.address,
  fingerprint: r.fingerprint,
  addedMs: r.added_ms,
  lastConnectedMs: r.last_connected_ms,
});

const fromRouteRow = (r: RouteRow): RouteRecord => ({
  destinationKey: r.destination_key,
  destination: r.destination,
  via: r.via,
});

/** Peers, routes and outgoing-queue holds. */
export class NetworkConfigStore {
  private readonly s: Record<string, Database.Statement>;

  constructor(db: Db) {
    this.s = {
      peers: db.prepare(`SELECT * FROM peers ORDER BY name_key`),
      putPeer: db.prepare(
        `INSERT INTO peers (name_key, name, address, fingerprint, added_ms, last_connected_ms)
         VALUES (@nameKey, @name, @address, @fingerprint, @addedMs, @lastConnectedMs)
         ON CONFLICT(name_key) DO UPDATE SET name = excluded.name, address = excluded.address,
           fingerprint = excluded.fingerprint, added_ms = excluded.added_ms, last_connected_ms = excluded.last_connected_ms`,
      ),
      removePeer: db.prepare(`DELETE FROM peers WHERE name_key = ?`),
      touchPeer: db.prepare(`UPDATE peers SET last_connected_ms = ? WHERE name_key = ?`),
      routes: db.prepare(`SELECT * FROM routes ORDER BY destination_key`),
      putRoute: db.prepare(
        `INSERT INTO routes (destination_key, destination, via) VALUES (@destinationKey, @destination, @via)
         ON CONFLICT(destination_key) DO UPDATE SET destination = excluded.destination, via = excluded.via`,
      ),
      removeRoute: db.prepare(`DELETE FROM routes WHERE destination_key = ?`),
      paused: db.prepare(`SELECT name_key FROM outgoing_state WHERE paused = 1`),
      setPaused: db.prepare(
        `INSERT INTO outgoing_state (name_key, paused) VALUES (?, ?)
         ON CONFLICT(name_key) DO UPDATE SET paused = excluded.paused`,
      ),
    };
  }

  peers(): PeerRecord[] {
    return (this.s.peers!.all() as PeerRow[]).map(fromPeerRow);
  }

  putPeer(peer: PeerRecord): void {
    this.s.putPeer!.run(peer);
  }

  /** False when there was no such peer. */
  removePeer(nameKey: string): boolean {
    return this.s.removePeer!.run(nameKey).changes > 0;
  }

  touchPeer(nameKey: string, lastConnectedMs: number): void {
    this.s.touchPeer!.run(lastConnectedMs, nameKey);
  }

  routes(): RouteRecord[] {
    return (this.s.routes!.all() as RouteRow[]).map(fromRouteRow);
  }

  putRoute(route: RouteRecord): void {
    this.s.putRoute!.run(route);
  }

  removeRoute(destinationKey: string): boolean {
    return this.s.removeRoute!.run(destinationKey).changes > 0;
  }

  /** Name keys of the outgoing queues an administrator paused. */
  pausedOutgoing(): string[] {
    return (this.s.paused!.all() as { name_key: string }[]).map((r) => r.name_key);
  }

  setOutgoingPaused(nameKey: string, paused: boolean): void {
    this.s.setPaused!.run(nameKey, paused ? 1 : 0);
  }
}
