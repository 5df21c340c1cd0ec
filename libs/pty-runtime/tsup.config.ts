import { cpSync, readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

// `./testing` runs the scripted fake agent (tools/fake-agent, plain ESM with no dependencies) as a
// real process: the build ships a copy in dist/fake-agent/, where an installed package finds it
// (src/testing/fake-agent-path.ts). package.json adds tools/fake-agent to the build's Nx inputs.
const FAKE_AGENT = new URL('../../tools/fake-agent/', import.meta.url);

export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts'],
  format: ['esm'],
  dts: declarations(true),
  clean: true,
  sourcemap: true,
  target: 'node20',
  onSuccess: async () => {
    for (const file of readdirSync(FAKE_AGENT).filter((f) => f.endsWith('.mjs'))) {
      cpSync(new URL(file, FAKE_AGENT), new URL(`dist/fake-agent/${file}`, import.meta.url));
    }
  },
});
