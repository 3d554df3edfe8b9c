/**
 * How `qk service start` runs a service in this process. The entry point injects it, so the CLI layer never
 * imports the service layer (DESIGN: core/cli imports client and api only).
 */
export interface StartedService {
  name: string;
  id: string;
  url: string;
  consoleUrl: string;
  /** Settles when the service has stopped (SIGINT/SIGTERM or `qk service stop`). */
  stopped: Promise<void>;
}

export interface ServiceStarter {
  /** Starts a service on a data folder; a malformed `listen` or `logLevel` is refused with QkError INVALID_PARAMETER before anything starts. */
  start(options: {
    dataDir: string;
    name: string | undefined;
    listen: string;
    /** `--log-level`; an unknown level is refused with INVALID_PARAMETER. */
    logLevel?: string | undefined;
  }): Promise<StartedService>;
}
