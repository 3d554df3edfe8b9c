/**
 * `qk resend`, `qk export` and `qk import`: what the console does with dead letters and with messages
 * saved to a file, as commands. The file format is docs/message-file-format.md: JSON Lines, a header line
 * and then one message per line, every property kept and bodies in base64.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { QkClient } from '@qk/client';
import { exportedFromVersion1, type ExportedMessage, type MessageFileHeader, type Version1Message } from '@qk/model';
import { action } from '../context.js';
import { formatCount } from '../format/table.js';
import type { CliIo } from '../io.js';
import { parseLookupId } from '../parse-values.js';
import { UsageError } from '../usage-error.js';

/** Messages per import call, and the body bytes after which a batch is sent early (the API takes 16 MB). */
const IMPORT_BATCH = 500;
const IMPORT_BATCH_BYTES = 6 * 1024 * 1024;

const plural = (n: number, one: string): string => `${formatCount(n)} ${one}${n === 1 ? '' : 's'}`;

/** A file that cannot be read or written, as a usage error naming it rather than an internal error. */
function fileError(error: unknown, file: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reasons: Record<string, string> = {
    ENOENT: 'no such file or folder',
    EISDIR: 'it is a folder, not a file',
    ENOTDIR: 'a part of the path is not a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENAMETOOLONG: 'the name is too long',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
  };
  const reason = code === undefined ? undefined : reasons[code];
  return reason === undefined ? error : new UsageError(`${file}: ${reason}.`);
}

/** Writes every message of a queue to `file`, page by page; the file appears only once it is complete. */
async function exportQueue(client: QkClient, path: string, file: string): Promise<number> {
  const status = await client.serviceStatus({});
  const partial = `${file}.partial`;
  let exported = 0;
  async function* lines(): AsyncGenerator<string> {
    const header: MessageFileHeader = {
      format: 'queuekeeper.messages',
      version: 2,
      computer: status.name,
      computerId: status.id,
      path,
      exportedTime: new Date().toISOString(),
    };
    yield `${JSON.stringify(header)}\n`;
    let after: string | undefined;
    for (;;) {
      const page = await client.messagesExport({ path, ...(after !== undefined ? { after } : {}) });
      for (const m of page.messages) yield `${JSON.stringify(m)}\n`;
      exported += page.messages.length;
      if (page.next === null) return;
      after = page.next;
    }
  }
  // pipeline owns the file stream's errors: a folder that does not exist, or a failed page, never leaves an
  // 'error' event (or a write after destroy) without a listener.
  try {
    await pipeline(Readable.from(lines()), createWriteStream(partial, { encoding: 'utf8' }));
    await rename(partial, file);
    return exported;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/** The messages of an export file, one at a time (version 2), or all of a version-1 document. */
async function* readExport(file: string): AsyncGenerator<ExportedMessage> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let header: Partial<MessageFileHeader> | null = null;
  let lineNo = 0;
  const rest: string[] = [];
  for await (const line of lines) {
    lineNo += 1;
    if (line.trim() === '') continue;
    if (header === null) {
      try {
        header = JSON.parse(line) as Partial<MessageFileHeader>;
      } catch {
        // A version-1 file is one JSON document over many lines.
        header = {};
        rest.push(line);
        continue;
      }
      if (header.format !== 'queuekeeper.messages' || header.version !== 2)
        throw new UsageError(`${file} is not a Queuekeeper message file (its first line is not the header).`);
      continue;
    }
    if (header.version !== 2) {
      rest.push(line);
      continue;
    }
    try {
      yield JSON.parse(line) as ExportedMessage;
    } catch (error) {
      throw new UsageError(`${file} line ${lineNo}: not JSON (${(error as Error).message}).`);
    }
  }
  if (header === null) return;
  if (header.version !== 2) {
    let doc: unknown;
    try {
      doc = JSON.parse(rest.join('\n'));
    } catch {
      throw new UsageError(`${file} is not a Queuekeeper message file.`);
    }
    const d = doc as { format?: unknown; messages?: unknown };
    if (d.format !== 'queuekeeper.messages' || !Array.isArray(d.messages))
      throw new UsageError(`${file} is not a Queuekeeper message file.`);
    for (const m of d.messages as Version1Message[]) yield exportedFromVersion1(m);
  }
}

/** Reads an export file into a queue, batch by batch; each batch is stored whole or not at all. */
async function importFile(client: QkClient, path: string, file: string, asNew: boolean): Promise<number> {
  let imported = 0;
  let batch: ExportedMessage[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    try {
      imported += (await client.messagesImport({ path, messages: batch, ...(asNew ? { mode: 'asNew' as const } : {}) }))
        .imported;
    } catch (error) {
      if (error instanceof Error && imported > 0)
        error.message = `${error.message} (${plural(imported, 'message')} of the file were imported before this batch)`;
      throw error;
    }
    batch = [];
    bytes = 0;
  };
  for await (const m of readExport(file)) {
    const size = typeof m.bodyBase64 === 'string' ? m.bodyBase64.length : 0;
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH || bytes + size > IMPORT_BATCH_BYTES)) await flush();
    batch.push(m);
    bytes += size;
  }
  await flush();
  return imported;
}

/** Registers resend, export and import. */
export function registerTransferCommands(program: Command, io: CliIo): void {
  program
    .command('resend <path> [lookupids...]')
    .description(
      'resend dead letters (all, or those named) from a dead-letter queue to their destination queues: class NORMAL, same ID and properties, timers counted again from now',
    )
    .action(
      action(io, async (ctx, [path, ...ids]) => {
        const lookupIds = ids.map((id) => parseLookupId(id));
        const client = await ctx.client();
        const result = await client.resend({
          path: path as string,
          ...(lookupIds.length > 0 ? { lookupIds } : {}),
        });
        ctx.print(result, (r) =>
          [
            `Resent ${plural(r.resent, 'message')}.`,
            ...r.failed.map((f) => `  ${f.lookupId}: ${f.error.code}: ${f.error.message}`),
          ].join('\n'),
        );
      }),
    );

  program
    .command('export <path> <file>')
    .description('write every message of a queue to FILE, losslessly (every property, binary bodies; JSON Lines)')
    .action(
      action(io, async (ctx, [path, file]) => {
        const client = await ctx.client();
        const exported = await exportQueue(client, path as string, file as string).catch((error: unknown) => {
          throw fileError(error, file as string);
        });
        ctx.print({ exported }, (r) => `Exported ${plural(r.exported, 'message')} of ${path} to ${file}.`);
      }),
    );

  program
    .command('import <path> <file>')
    .description('read a file written by qk export (or the console) back into a queue, every property as it was')
    .option(
      '--as-new',
      "send each message as a new one from this computer instead (the console's default): new ID, class NORMAL, timers from now",
    )
    .action(
      action(io, async (ctx, [path, file]) => {
        const client = await ctx.client();
        const asNew = ctx.options['asNew'] === true;
        const imported = await importFile(client, path as string, file as string, asNew).catch((error: unknown) => {
          throw fileError(error, file as string);
        });
        ctx.print({ imported }, (r) => `Imported ${plural(r.imported, 'message')} into ${path}.`);
      }),
    );
}
