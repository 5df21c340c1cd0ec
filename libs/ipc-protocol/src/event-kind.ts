import type { CCCSEventV1, EventOf } from './events.js';
import type { KnownKind } from './kinds/registry.js';

/**
 * Narrows a stored event to its kind's typed shape. The ledger validated known kinds' data when
 * it appended them, so the check is the kind alone (cheap enough for projection scans). Its own
 * module, free of zod, so the browser (`./browser`) bundles it without the schemas.
 */
export function isEventOfKind<K extends KnownKind>(event: CCCSEventV1, kind: K): event is CCCSEventV1 & EventOf<K> {
  return event.kind === kind;
}
