import { ApiError } from '../api/http';

/** A failed call as shown in a panel: the stable error code first, then the daemon's message. */
export const apiMessage = (e: Error): string => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);
