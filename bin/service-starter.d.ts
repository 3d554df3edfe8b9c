/**
 * How `qk service start` runs a service in this process: the adapter between the CLI's ServiceStarter and the
 * service's runService. It lives here, in the composition root, because it is the one place allowed to know
 * both layers: core/cli imports only client and api, and core/service needs nothing of the CLI.
 * The service layer is imported on first use, so every other command starts without loading fastify or SQLite.
 */
import type { ServiceStarter } from '@qk/cli';
export declare const serviceStarter: ServiceStarter;
