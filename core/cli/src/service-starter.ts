/**
 * How `qk service start` runs a service in this process. The entry point injects it, so the CLI layer never
 * imports the service layer (DESIGN: core/cli imports client and api only).
 */
export interface StartedService {
  name: string;
  id: string;
  url: string;
  /** A one-time console link (a code valid for a minute, once; never the token). */
  consoleLink(): string;
  /** `HOST:PORT` of the peer listener, or null without `--peer-listen`. */
  peerAddress: string | null;
  /** `sha256:` + hex of this computer's peer certificate. */
  peerFingerprint: string;
  /** Settles when the service has stopped (SIGINT/SIGTERM or `qk service stop`). */
  stopped: Promise<void>;
}

/** What `qk service start` asks for. */
export interface ServiceStartOptions {
  dataDir: string;
  name: string | undefined;
  listen: string;
  allowRemote: boolean;
  tls: { certFile: string; keyFile: string } | undefined;
  allowHosts: string[];
  allowOrigins: string[];
  /** `--peer-listen HOST:PORT`: accept deliveries from other computers there. */
  peerListen?: string | undefined;
  /** `--routing`: relay messages for other computers. */
  routing?: boolean | undefined;
  /** `--log-level`; an unknown level is refused with INVALID_PARAMETER. */
  logLevel?: string | undefined;
}

export interface ServiceStarter {
  /**
   * Starts a service on a data folder. What the command line got wrong (a malformed or refused `listen`,
   * unreadable TLS files) is refused with QkError INVALID_PARAMETER before anything starts.
   */
  start(options: ServiceStartOptions): Promise<StartedService>;
}
