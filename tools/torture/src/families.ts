import { connectionsFamily } from './cases/connections.js';
import { crashFamily } from './cases/crash.js';
import { fuzzFamily } from './cases/fuzz.js';
import { hostileFamily } from './cases/hostile.js';
import { rotationFamily } from './cases/rotation.js';
import { secretsFamily } from './cases/secrets.js';
import { streamsFamily } from './cases/streams.js';
import { webFamily } from './cases/web.js';
import { inputFamily } from './cases/input.js';
import type { Family } from './family.js';

/** In run order. */
export const FAMILIES: readonly Family[] = [inputFamily, fuzzFamily, hostileFamily, connectionsFamily, streamsFamily, webFamily, secretsFamily, crashFamily, rotationFamily];
