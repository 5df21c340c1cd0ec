import { runHook } from './hook-main.js';

await runHook(process.argv[3] ?? '');
