import { runHook } from './hook-main.js';

// Bundled as CommonJS (dist/hook-cli.cjs, see tsup.hooks.config.ts): no top-level await.
void runHook(process.argv[3] ?? '');
