import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// zod and the MCP SDK resolve from the workspace root; keep them external.
export default defineConfig({
  entry: ['src/index.ts', 'src/launch.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod', '@modelcontextprotocol/sdk'],
});
