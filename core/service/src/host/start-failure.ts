/**
 * What a failed start tells the administrator. A data folder on a full disk, on a read-only file system or
 * without permission fails somewhere among the lock, the token, the store and service.json; wherever it is,
 * the answer names the folder and what to do, with a stable code, instead of an internal error.
 */
import { QkError } from '@qk/model';

export function startFailure(error: unknown, dataDir: string): unknown {
  if (error instanceof QkError) return error;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const why = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new QkError(
        'MESSAGE_STORAGE_FAILED',
        `The disk holding the data folder ${dataDir} is full (${why}): free space there and start again. Nothing stored was changed.`,
      );
    case 'EROFS':
      return new QkError(
        'MESSAGE_STORAGE_FAILED',
        `The data folder ${dataDir} is on a read-only file system (${why}): the service needs to write there.`,
      );
    case 'EACCES':
    case 'EPERM':
      return new QkError(
        'ACCESS_DENIED',
        `The data folder ${dataDir} cannot be written by this user (${why}): run the service as the folder's owner.`,
      );
    default:
      return error;
  }
}
