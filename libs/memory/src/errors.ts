import { IpcError } from '@cccc/ipc-protocol';

/**
 * Stable codes of the memory_reme ops. Bad arguments the catalog cannot see (a date that is no
 * calendar day, a daily write without a date) are `invalid_request` with `details.field`, as §6.
 */
export const MemoryErrorCodes = {
  invalidRequest: 'invalid_request',
  pathOutsideRoot: 'memory_path_outside_root',
  pathSymlink: 'memory_path_symlink',
  fileNotFound: 'memory_file_not_found',
  ioError: 'io_error',
} as const;

export type MemoryErrorCode = (typeof MemoryErrorCodes)[keyof typeof MemoryErrorCodes];

export function memoryError(code: MemoryErrorCode, message: string, details: Record<string, unknown> = {}): IpcError {
  return new IpcError(code, message, details);
}

/** Any filesystem or SQLite failure as `io_error`, keeping IpcErrors as they are. */
export function asMemoryError(error: unknown, what: string): IpcError {
  if (error instanceof IpcError) return error;
  const err = error as NodeJS.ErrnoException;
  return memoryError(MemoryErrorCodes.ioError, `${what}: ${err?.message ?? String(error)}`, err?.code ? { errno: err.code } : {});
}
