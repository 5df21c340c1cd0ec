import { defineConfig } from 'tsup';

// zod and the MCP SDK resolve from the workspace root; keep them external.
export default defineConfig({
  entry: ['src/index.ts', 'src/launch.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['zod', '@modelcontextprotocol/sdk'],
});
