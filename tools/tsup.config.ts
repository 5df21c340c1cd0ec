import { defineConfig } from 'tsup';
import { existsSync } from 'node:fs';

// Each bench section is its own entry so bench.ts can load the ones that exist.
const entries = ['src/bench.ts', 'src/bench-child.ts', 'src/bench/ping.ts', 'src/bench/ledger.ts', 'src/bench/kernel.ts', 'src/bench/pty.ts', 'src/bench/context.ts', 'src/bench/memory-search.ts', 'src/bench/mcp.ts', 'src/bench/attach.ts', 'src/bench/runtime.ts', 'src/bench/web.ts', 'src/bench/web-render.ts', 'src/bench/hooks.ts', 'src/bench/hooks-http.ts', 'src/bench/cli.ts', 'src/bench/idle-rss.ts', 'src/bench/working-state.ts', 'src/bench/cold-start.ts', 'src/bench/memory.ts', 'src/bench/delivery-matrix.ts', 'src/bench/rotation-stall.ts', 'src/bench/space.ts', 'src/bench/codex-managed.ts', 'src/bench/opencode-managed.ts', 'src/bench/startup.ts'].filter((f) => existsSync(f));

// real-clis/install.mjs reads its pins.json beside itself; bundled into a section (delivery-matrix)
// or a shared chunk, "beside itself" is dist/bench or dist, so the pins go to both.
const copyPins = 'node -e "for (const d of [\'dist\', \'dist/bench\']) require(\'fs\').copyFileSync(\'real-clis/pins.json\', d + \'/pins.json\')"';

export default defineConfig({ entry: entries, format: ['esm'], clean: true, sourcemap: true, target: 'node20', splitting: true, onSuccess: copyPins });
