import { createRequire } from 'node:module';

// src/ and dist/ both sit one level below the package root, so this resolves in tests and builds.
const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

export const DAEMON_VERSION: string = pkg.version;
export const IMPLEMENTATION = 'cccc-ts';
/**
 * ping's `compatibility` (§8.1): what a client may rely on, since it must not infer anything from
 * `implementation`. Its promise is written in libs/ipc-protocol/README.md ("Compatibility").
 */
export const COMPATIBILITY = 'cccc-ipc-v1';
