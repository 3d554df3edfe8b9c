/**
 * The service's log (issue 7, item 9): structured JSON lines in `DIR/logs/service.log`, rotated by size
 * (rotating-file-stream keeps LOG_GENERATIONS older files, service.log.1 the newest), at the level of
 * `--log-level`; on a terminal, warnings and errors also in readable form (pino-pretty) on stderr.
 *
 * Streams only, never pino's `transport:` option: transports run in worker threads loaded from files by
 * path, which esbuild's bundles (the qk CLI, the Electron main process) do not carry.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, multistream, stdTimeFunctions, type Level, type Logger as PinoLogger, type StreamEntry } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { createStream, type RotatingFileStream } from 'rotating-file-stream';
import { QkError } from '@qk/model';

/** The folder of the log files inside the data folder. */
export const LOG_FOLDER = 'logs';
/** The current log file; older generations are `service.log.1` … `service.log.5`. */
export const LOG_FILE = 'service.log';
/** One file grows to this size before it is rotated. */
export const LOG_FILE_SIZE = '10M';
/** Older files kept: with LOG_FILE_SIZE, the log never takes more than 60 MB. */
export const LOG_GENERATIONS = 5;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'info';

/** Parses a `--log-level` value; anything else is INVALID_PARAMETER (a wrong command line). */
export function parseLogLevel(text: string | undefined): LogLevel {
  if (text === undefined) return DEFAULT_LOG_LEVEL;
  const level = text.trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(level)) return level as LogLevel;
  throw new QkError('INVALID_PARAMETER', `--log-level must be one of ${LOG_LEVELS.join(', ')}; got '${text}'.`);
}

/** How a service logger is made. */
export interface ServiceLoggerOptions {
  dataDir: string;
  level?: LogLevel | undefined;
  /** Where readable warnings and errors go (the terminal's stderr for `qk service start`); none when omitted. */
  terminal?: (NodeJS.WritableStream & { isTTY?: boolean }) | undefined;
  /** Rotation size of one file (tests make it small). */
  fileSize?: string | undefined;
}

/** A logger and the file it writes. */
export interface ServiceLogger {
  readonly logger: PinoLogger;
  readonly level: LogLevel;
  /** Absolute path of the current log file. */
  readonly file: string;
  /**
   * Starts writing the file, with the lines logged so far. Called once the data-folder lock is held: a second
   * service refused on the folder must not append to, or rotate, the log of the one that runs there.
   */
  openFile(): void;
  /** Flushes and closes the log file; lines logged afterwards are dropped. */
  close(): Promise<void>;
}

/** Lines kept while the file is not open yet (a start logs a handful). */
const EARLY_LINES = 1_000;

/** The log file as pino writes to it: lines are held until the file opens, then written in order. */
class LogFile {
  #early: string[] | null = [];
  #stream: RotatingFileStream | null = null;

  constructor(
    private readonly folder: string,
    private readonly fileSize: string,
    private readonly onError: (error: Error) => void,
  ) {}

  write(line: string): void {
    if (this.#stream) this.#stream.write(line);
    else if (this.#early && this.#early.length < EARLY_LINES) this.#early.push(line);
  }

  open(): void {
    if (this.#stream || !this.#early) return;
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    this.#stream = createStream(LOG_FILE, {
      path: this.folder,
      size: this.fileSize,
      rotate: LOG_GENERATIONS,
      mode: 0o600,
    });
    // A log file that cannot be written must not take the service down.
    this.#stream.on('error', this.onError);
    for (const line of this.#early) this.#stream.write(line);
    this.#early = null;
  }

  close(): Promise<void> {
    this.#early = null;
    const stream = this.#stream;
    return stream ? new Promise<void>((resolve) => stream.end(() => resolve())) : Promise.resolve();
  }
}

/** The more severe of two levels: the terminal shows warnings and errors even when the file takes less. */
function atLeastWarn(level: Level): Level {
  const values = pino.levels.values;
  return (values[level] ?? 0) >= (values['warn'] ?? 40) ? level : 'warn';
}

/** The logger of a service on `DIR`; its file (`DIR/logs/service.log`, owner-only) opens with openFile(). */
export function createServiceLogger(options: ServiceLoggerOptions): ServiceLogger {
  const level = options.level ?? DEFAULT_LOG_LEVEL;
  const folder = join(options.dataDir, LOG_FOLDER);
  const file = new LogFile(folder, options.fileSize ?? LOG_FILE_SIZE, (error) =>
    options.terminal?.write(`Queuekeeper: cannot write the log ${join(folder, LOG_FILE)}: ${error.message}\n`),
  );

  const streams: StreamEntry[] = [];
  if (level !== 'silent') {
    streams.push({ level, stream: file });
    if (options.terminal) {
      const readable = PinoPretty({
        destination: options.terminal,
        colorize: options.terminal.isTTY === true,
        sync: true,
        translateTime: 'SYS:HH:MM:ss',
        ignore: 'pid,hostname,component',
        messageFormat: '{if component}[{component}] {end}{msg}',
      });
      streams.push({ level: atLeastWarn(level), stream: readable });
    }
  }
  const logger = pino(
    { level, timestamp: stdTimeFunctions.isoTime, base: { pid: process.pid } },
    multistream(streams, { dedupe: false }),
  );

  let closing: Promise<void> | undefined;
  return {
    logger,
    level,
    file: join(folder, LOG_FILE),
    openFile: () => file.open(),
    close() {
      closing ??= file.close();
      return closing;
    },
  };
}
