/** The logger the network writes to: pino's shape (`log.warn({…}, 'message')`), so the service's pino fits. */
export interface NetworkLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** One JSON line per entry on stderr: used when the host gives no logger, so nothing goes unsaid. */
export const stderrLog: NetworkLog = {
  info: (fields, message) => write('info', fields, message),
  warn: (fields, message) => write('warn', fields, message),
  error: (fields, message) => write('error', fields, message),
};

function write(level: string, fields: Record<string, unknown>, message: string): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: new Date().toISOString(), component: 'network', ...fields, msg: message })}\n`,
  );
}
