// What a browser bundle imports at run time: event narrowing by kind, with no zod and no op
// catalog behind it. Types come from the main entry (`import type ... from '@cccc/ipc-protocol'`).
export { isEventOfKind } from './event-kind.js';
export type { CCCSEventV1, EventOf, KnownEvent } from './events.js';
export type { KnownKind, KindData } from './kinds/registry.js';
