import { defineConfig } from 'tsup';
import { existsSync } from 'node:fs';

// Each bench section is its own entry so bench.ts can load the ones that exist.
const entries = ['src/bench.ts', 'src/bench-child.ts', 'src/bench/ping.ts', 'src/bench/ledger.ts', 'src/bench/kernel.ts', 'src/bench/pty.ts', 'src/bench/context.ts', 'src/bench/mcp.ts', 'src/bench/attach.ts', 'src/bench/runtime.ts', 'src/bench/web.ts', 'src/bench/web-render.ts', 'src/bench/hooks.ts', 'src/bench/working-state.ts', 'src/bench/cold-start.ts', 'src/bench/memory.ts', 'src/bench/rotation-stall.ts'].filter((f) => existsSync(f));

export default defineConfig({ entry: entries, format: ['esm'], clean: true, sourcemap: true, target: 'node20', splitting: true });
