import type { Logger } from '@qk/model';

/** One line a component logged: its level, its context with the child loggers' bindings, its message. */
interface LoggedLine {
  level: string;
  context: Record<string, unknown>;
  message: string;
}

/** A logger that keeps every line in memory, child loggers included, for tests that read what was logged. */
export function recordingLogger(): Logger & { lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const make = (bindings: Record<string, unknown>): Logger & { lines: LoggedLine[] } => {
    const at =
      (level: string) =>
      (context: object, message: string): void => {
        lines.push({ level, context: { ...bindings, ...context }, message });
      };
    return {
      lines,
      error: at('error'),
      warn: at('warn'),
      info: at('info'),
      debug: at('debug'),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return make({});
}
