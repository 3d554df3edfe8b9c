/**
 * qk ↔ console parity: `qk resend` (dead letters back to their destinations as new sends with fresh
 * timers) and `qk export` / `qk import` (a documented, lossless file: every property, binary bodies).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCli, type CliIo } from '@qk/cli';
import { failsWith, ok, waitFor } from '../helpers/qk-expect.js';
import { callApi } from '../helpers/http-api.js';
import { SYSTEM } from '../helpers/qk-ops.js';
import type { QkMessage } from '../helpers/qk-types.js';
import { serviceForFile } from '../helpers/service-for-file.js';
import { writeTempFile } from '../helpers/temp-files.js';

const file = serviceForFile();
const folder = mkdtempSync(join(tmpdir(), 'qk-export-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Resent {
  resent: number;
  failed: { lookupId: number; error: { code: string; message: string } }[];
}

async function deadLetterOf(id: string): Promise<QkMessage> {
  return waitFor(async () => (await file.q.copiesOf(SYSTEM.deadLetter, id))[0], `${id} dead-lettered`, 30_000);
}

// One after the other: resending every dead letter takes the other test's too.
describe('qk resend', () => {
  test('R-X7 a dead letter of an expired TTBR goes back as a new send: class NORMAL, same ID and properties, its TTBR counted again', async () => {
    const { q, svc } = file;
    const [dest, adm] = await Promise.all([q.newQueue('rs'), q.newQueue('rs-adm')]);
    // 10 s: long enough for qk to look at the resent message before its fresh TTBR runs out again.
    const id = await q.send(
      dest,
      '--ttbr',
      '10',
      '--journal',
      'deadletter',
      '--ack',
      'nack-receive',
      '--admin-queue',
      adm,
      '--label',
      'again',
      '--body',
      'resend me',
      '--app-specific',
      '42',
      '--priority',
      '6',
    );
    const dead = await deadLetterOf(id);
    const beforeResend = Date.now();
    const result = ok(await svc.qk<Resent>('resend', SYSTEM.deadLetter, String(dead.lookupId)));
    expect(result).toEqual({ resent: 1, failed: [] });
    const [back] = await q.messages(dest);
    expect(back).toMatchObject({
      id,
      class: 'NORMAL',
      label: 'again',
      body: 'resend me',
      appSpecific: 42,
      priority: 6,
    });
    expect(back?.timeToBeReceived).toBeGreaterThan(0);
    // A new send from the administrator: sent (and its timers started) at the resend.
    expect(Date.parse(back?.sentTime ?? '')).toBeGreaterThanOrEqual(beforeResend - 250);
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
    // The fresh timer runs out in its own time: only then a second NACK.
    expect((await q.acksFor(adm, id)).length).toBe(1);
    await deadLetterOf(id);
    expect((await q.acksFor(adm, id)).length).toBe(2);
  });

  test('qk resend without lookup IDs resends every dead letter; one its destination refuses stays and is reported', async () => {
    const { q, svc } = file;
    const [ok1, full] = await Promise.all([q.newQueue('rs-all'), q.newQueue('rs-full', '--quota', '0')]);
    const xdlq = SYSTEM.xactDeadLetter;
    const tx = await q.newQueue('rs-tx', '--transactional');
    const idTx = await q.send(tx, '--transactional', '--journal', 'deadletter', '--ttbr', '5');
    const idFull = await q.send(full, '--journal', 'deadletter', '--body', 'never fits');
    const idOk = await q.send(ok1, '--journal', 'deadletter', '--ttbr', '5');
    await deadLetterOf(idFull);
    await deadLetterOf(idOk);
    await waitFor(async () => (await q.copiesOf(xdlq, idTx))[0], 'the transactional dead letter', 15_000);
    const fromXact = ok(await svc.qk<Resent>('resend', xdlq));
    expect(fromXact.resent).toBeGreaterThanOrEqual(1);
    expect((await q.messages(tx)).map((m) => m.id)).toContain(idTx);
    const result = ok(await svc.qk<Resent>('resend', SYSTEM.deadLetter));
    const failedFull = result.failed.find((f) => f.error.code === 'QUOTA_EXCEEDED');
    expect(failedFull).toBeDefined();
    expect(await q.copiesOf(SYSTEM.deadLetter, idFull)).toHaveLength(1);
    expect((await q.messages(ok1)).map((m) => m.id)).toContain(idOk);
  });

  test('qk resend refuses a queue that holds no dead letters', async () => {
    const { svc } = file;
    failsWith(await svc.qk('resend', SYSTEM.journal), 'INVALID_PARAMETER');
  });
});

describe.concurrent('qk export and qk import', () => {
  test('every property and a binary body survive export then import into another queue; the file is JSON Lines with a header', async () => {
    const { q, svc } = file;
    const [src, dst, adm] = await Promise.all([q.newQueue('ex'), q.newQueue('ex-copy'), q.newQueue('ex-adm')]);
    const binary = Buffer.concat([Buffer.from([0, 0xff, 0xfe]), randomBytes(5_000)]);
    await q.send(src, '--body-file', writeTempFile(binary), '--label', 'binary', '--priority', '1');
    await q.send(
      src,
      '--body',
      'text',
      '--label',
      'props',
      '--ack',
      'full-receive',
      '--admin-queue',
      adm,
      '--response-queue',
      adm,
      '--journal',
      'both',
      '--app-specific',
      '7',
      '--ttbr',
      '3600',
      '--recoverable',
      '--conversation',
      'c-1',
    );
    for (let i = 0; i < 3; i++) await q.send(src, '--label', `plain ${i}`);
    const out = join(folder, 'ex.jsonl');
    expect(ok(await svc.qk<{ exported: number }>('export', src, out))).toEqual({ exported: 5 });
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0] as string)).toMatchObject({ format: 'queuekeeper.messages', version: 2 });
    expect(lines).toHaveLength(6);
    expect(ok(await svc.qk<{ imported: number }>('import', dst, out))).toEqual({ imported: 5 });
    const [before, after] = [await q.messages(src), await q.messages(dst)];
    const comparable = (m: QkMessage) => {
      const { lookupId: _l, timeToBeReceived: _t, ...rest } = m;
      return rest;
    };
    expect(after.map(comparable)).toEqual(before.map(comparable));
    const bin = after.find((m) => m.label === 'binary');
    expect(Buffer.from(bin?.bodyBase64 ?? '', 'base64').equals(binary)).toBe(true);
    expect(after.find((m) => m.label === 'props')?.timeToBeReceived).toBeGreaterThan(3_500);
  });

  test('a queue larger than one reply (1,201 messages, pages of 1,000) exports and imports whole, in queue order', async () => {
    const { q, svc } = file;
    const [src, dst] = await Promise.all([q.newQueue('ex-big'), q.newQueue('ex-big-copy')]);
    const count = 1_201;
    const messages = Array.from({ length: count }, (_, i) => ({
      path: src,
      message: { label: `m${i}`, body: `${i}` },
    }));
    await callApi(svc.dataDir, 'sendBatch', { messages });
    const out = join(folder, 'big.jsonl');
    expect(ok(await svc.qk<{ exported: number }>('export', src, out))).toEqual({ exported: count });
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(count + 1);
    expect(lines.slice(1).map((line) => (JSON.parse(line) as { label: string }).label)).toEqual(
      messages.map((m) => m.message.label),
    );
    expect(ok(await svc.qk<{ imported: number }>('import', dst, out))).toEqual({ imported: count });
    const copied = ok(await svc.qk<{ total: number }>('messages', dst, '--limit', '1'));
    expect(copied.total).toBe(count);
  });

  test('qk import --as-new sends each message anew from this computer: new ID, class NORMAL, same label and body, sent now', async () => {
    const { q, svc } = file;
    const [src, dst] = await Promise.all([q.newQueue('ex-new'), q.newQueue('ex-new-copy')]);
    const id = await q.send(src, '--label', 'once more', '--body', 'same body', '--ttbr', '3600');
    const out = join(folder, 'as-new.jsonl');
    ok(await svc.qk('export', src, out));
    const beforeImport = Date.now();
    expect(ok(await svc.qk<{ imported: number }>('import', dst, out, '--as-new'))).toEqual({ imported: 1 });
    const [copy] = await q.messages(dst);
    expect(copy).toMatchObject({ class: 'NORMAL', label: 'once more', body: 'same body' });
    expect(copy?.id).not.toBe(id);
    expect(Date.parse(copy?.sentTime ?? '')).toBeGreaterThanOrEqual(beforeImport - 250);
  });

  test('an import the queue cannot take (transactional type) is refused and stores nothing', async () => {
    const { q, svc } = file;
    const [src, tx] = await Promise.all([q.newQueue('ex-plain'), q.newQueue('ex-tx', '--transactional')]);
    await q.send(src, '--label', 'plain');
    const out = join(folder, 'plain.jsonl');
    ok(await svc.qk('export', src, out));
    failsWith(await svc.qk('import', tx, out), 'TRANSACTION_USAGE');
    expect((await q.show(tx)).messageCount).toBe(0);
  });

  test('a file that is not an export is a command-line error (exit 2) and stores nothing', async () => {
    const { q, svc } = file;
    const dst = await q.newQueue('ex-bad');
    const bad = join(folder, 'bad.jsonl');
    writeFileSync(bad, '{"hello":"world"}\n');
    expect((await svc.qk('import', dst, bad)).exitCode).toBe(2);
    expect((await svc.qk('import', dst, join(folder, 'missing.jsonl'))).exitCode).toBe(2);
    expect((await q.show(dst)).messageCount).toBe(0);
  });

  // In this process, not a spawned qk: an 'error' the file stream emits with no listener would surface here.
  test('export into a folder that does not exist is a command-line error naming the file, leaves no file and no stray error', async () => {
    const { q, svc } = file;
    const src = await q.newQueue('ex-nofolder');
    await q.send(src, '--label', 'one');
    const target = join(folder, 'no-such-folder', 'out.jsonl');
    let stderr = '';
    const io: CliIo = {
      stdout: () => undefined,
      stderr: (t) => void (stderr += t),
      env: { ...process.env, QK_DATA: svc.dataDir },
    };
    expect(await runCli(['export', src, target], io)).toBe(2);
    expect(stderr).toContain('no such file or folder');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(`${target}.partial`)).toBe(false);
    expect((await q.show(src)).messageCount).toBe(1);
  });
});

describe.concurrent('qk message move to another queue', () => {
  test('through the arrival path of the target: the same message there, gone here; one the target refuses (R-Q2 full, R-M1 type) stays, with no NACK and no dead letter', async () => {
    const { q, svc } = file;
    const [src, dst, full, tx, adm] = await Promise.all([
      q.newQueue('mv'),
      q.newQueue('mv-to'),
      q.newQueue('mv-full', '--quota', '0'),
      q.newQueue('mv-tx', '--transactional'),
      q.newQueue('mv-adm'),
    ]);
    const id = await q.send(
      src,
      '--label',
      'moving',
      '--body',
      'b',
      '--journal',
      'deadletter',
      '--ack',
      '15',
      '--admin-queue',
      adm,
    );
    const lookupId = String((await q.messages(src))[0]?.lookupId);
    failsWith(await svc.qk('message', 'move', src, lookupId, full), 'QUOTA_EXCEEDED');
    failsWith(await svc.qk('message', 'move', src, lookupId, tx), 'TRANSACTION_USAGE');
    expect((await q.messages(src)).map((m) => m.id)).toEqual([id]);
    ok(await svc.qk('message', 'move', src, lookupId, dst));
    expect(await q.messages(src)).toHaveLength(0);
    expect((await q.messages(dst))[0]).toMatchObject({ id, label: 'moving', body: 'b', class: 'NORMAL' });
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
    expect((await q.acksFor(adm, id)).filter((a) => a.classCode >= 0x8000)).toEqual([]);
  });

  test('a dead letter moved out of .\\DEADLETTER$ is the original message again (class NORMAL)', async () => {
    const { q, svc } = file;
    const [src, dst] = await Promise.all([q.newQueue('mv-dl', '--quota', '0'), q.newQueue('mv-dl-to')]);
    const id = await q.send(src, '--label', 'refused', '--journal', 'deadletter');
    const dead = await deadLetterOf(id);
    expect(dead.class).toBe('NACK_Q_EXCEED_QUOTA');
    ok(await svc.qk('message', 'move', SYSTEM.deadLetter, String(dead.lookupId), dst));
    expect((await q.messages(dst))[0]).toMatchObject({ id, label: 'refused', class: 'NORMAL', classCode: 0 });
    expect(await q.copiesOf(SYSTEM.deadLetter, id)).toHaveLength(0);
  });
});
