import { jsonShapeViolation } from '@cccc/ipc-protocol';
import { HttpError } from './errors.js';

/**
 * JSON text from a client, parsed under the daemon's shape limits (nesting depth, node count),
 * checked before parsing: a hostile shape is a 400 `invalid_request` naming the limit, the same
 * answer the daemon's socket gives.
 */
export function parseJsonText(text: string, what: string, field?: string): unknown {
  const shape = jsonShapeViolation(text);
  if (shape) {
    const why = shape.limit === 'json_depth' ? `nests deeper than ${shape.max} levels` : `has more than ${shape.max} values`;
    throw new HttpError(400, 'invalid_request', `${what} ${why}`, { ...shape, ...(field ? { field } : {}) });
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_request', `${what} is not valid JSON`, field ? { field } : undefined);
  }
}
