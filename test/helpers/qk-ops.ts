/**
 * The handful of `qk` round trips nearly every conformance test makes, each asserting success.
 * Everything goes through the CLI; nothing here knows the product's internals.
 */
import type { ServiceHarness } from './service-harness.js';
import { ok } from './qk-expect.js';
import type { QkMessage, QkMessagePage, QkQueue, QkSetting, QkStatus } from './qk-types.js';

let counter = 0;

/** A queue name no other test in this run uses. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}-${counter}`;
}

/** `.\private$\<unique name>`. */
export function privatePath(prefix: string): string {
  return `.\\private$\\${uniqueName(prefix)}`;
}

export const SYSTEM = {
  journal: '.\\JOURNAL$',
  deadLetter: '.\\DEADLETTER$',
  xactDeadLetter: '.\\XACTDEADLETTER$',
} as const;

/** Journal path of a queue path. */
export function journalOf(path: string): string {
  return `${path}\\JOURNAL$`;
}

/** Case-insensitive comparison of queue names (MSMQ names are case-insensitive). */
export function sameQueue(a: string | null | undefined, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** Operations on one service, each asserting that `qk` succeeded. */
export class Qk {
  constructor(readonly svc: ServiceHarness) {}

  async createQueue(path: string, ...flags: string[]): Promise<QkQueue> {
    return ok(await this.svc.qk<QkQueue>('queue', 'create', path, ...flags));
  }

  /** Creates a fresh private queue and returns its path. */
  async newQueue(prefix: string, ...flags: string[]): Promise<string> {
    const path = privatePath(prefix);
    await this.createQueue(path, ...flags);
    return path;
  }

  async show(path: string): Promise<QkQueue> {
    return ok(await this.svc.qk<QkQueue>('queue', 'show', path));
  }

  async list(): Promise<QkQueue[]> {
    return ok(await this.svc.qk<QkQueue[]>('queue', 'list'));
  }

  /** Sends one message; returns its ID. */
  async send(path: string, ...flags: string[]): Promise<string> {
    const { id } = ok(await this.svc.qk<{ id: string }>('send', path, ...flags));
    return id;
  }

  async receive(path: string, ...flags: string[]): Promise<QkMessage> {
    return ok(await this.svc.qk<QkMessage>('receive', path, ...flags));
  }

  async peek(path: string, ...flags: string[]): Promise<QkMessage> {
    return ok(await this.svc.qk<QkMessage>('peek', path, ...flags));
  }

  /** A whole queue (up to 1,000 messages) in queue order. */
  async messages(path: string): Promise<QkMessage[]> {
    const page = ok(await this.svc.qk<QkMessagePage>('messages', path, '--limit', '1000'));
    return page.messages;
  }

  async page(path: string, ...flags: string[]): Promise<QkMessagePage> {
    return ok(await this.svc.qk<QkMessagePage>('messages', path, ...flags));
  }

  /** Messages of a queue whose message ID is `id` (dead-letter and journal copies keep the ID). */
  async copiesOf(path: string, id: string): Promise<QkMessage[]> {
    return (await this.messages(path)).filter((m) => m.id === id);
  }

  /** Acknowledgments in `adminQueue` whose correlation ID is `id`. */
  async acksFor(adminQueue: string, id: string): Promise<QkMessage[]> {
    return (await this.messages(adminQueue)).filter((m) => m.correlationId === id);
  }

  async purge(path: string): Promise<number> {
    return ok(await this.svc.qk<{ purged: number }>('queue', 'purge', path)).purged;
  }

  async status(): Promise<QkStatus> {
    return ok(await this.svc.qk<QkStatus>('service', 'status'));
  }

  async settings(): Promise<QkSetting[]> {
    return ok(await this.svc.qk<QkSetting[]>('settings'));
  }

  async setting(name: string): Promise<QkSetting> {
    const found = (await this.settings()).find((s) => s.name === name);
    if (!found) throw new Error(`setting ${name} is not listed by 'qk settings'`);
    return found;
  }

  async setSetting(name: string, value: number | string): Promise<QkSetting> {
    return ok(await this.svc.qk<QkSetting>('settings', 'set', name, String(value)));
  }
}
