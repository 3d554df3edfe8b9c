/** What a command action gets: its options, where to print, and a client on demand. */
import type { Command } from 'commander';
import type { QkClient } from '@qk/client';
import type { CliIo } from './io.js';
import { connect, resolveTarget, type GlobalOptions, type Target } from './target.js';

/** What commander gives for an option: text for `<value>`, true for a flag, a list for `<values...>`. */
export type OptionValue = string | boolean | string[] | undefined;

/** One running command. */
export class CommandContext {
  readonly io: CliIo;
  readonly options: GlobalOptions & Record<string, OptionValue>;
  readonly json: boolean;
  #client: Promise<QkClient> | undefined;
  #target: Target | undefined;

  constructor(command: Command, io: CliIo) {
    this.io = io;
    this.options = command.optsWithGlobals();
    this.json = this.options.json === true;
  }

  /** Where the service is (resolved once). */
  target(): Target {
    this.#target ??= resolveTarget(this.options, this.io.env);
    return this.#target;
  }

  /** The client of the target service, connected on first use. */
  client(): Promise<QkClient> {
    this.#client ??= connect(this.target());
    return this.#client;
  }

  /** Prints a result: the JSON document with --json, else the human text. */
  print<T>(value: T, human: (value: T) => string): void {
    this.io.stdout(this.json ? `${JSON.stringify(value)}\n` : `${human(value)}\n`);
  }

  /** Closes the client if one was opened. */
  async dispose(): Promise<void> {
    // A client that failed to open was reported by the command that needed it; there is nothing to close.
    const client = await this.#client?.catch(() => undefined);
    await client?.close();
  }
}

/** Wraps an action so it runs with a context that is disposed afterwards. */
export function action(
  io: CliIo,
  run: (ctx: CommandContext, args: string[]) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    // A variadic argument (`[lookupids...]`) comes as an array: its items are positional too.
    const positional = args
      .slice(0, -2)
      .flatMap((a) => (Array.isArray(a) ? (a as unknown[]) : [a]))
      .filter((a): a is string => typeof a === 'string');
    const ctx = new CommandContext(command, io);
    try {
      await run(ctx, positional);
    } finally {
      await ctx.dispose();
    }
  };
}
