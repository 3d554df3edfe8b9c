/** How a result crosses every process boundary: `{ok:true,value}` or `{ok:false,error:{code,message}}`. */
import type { ErrorCode } from './errors.js';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };
