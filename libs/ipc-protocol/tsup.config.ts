import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({
  entry: ['src/index.ts', 'src/node.ts', 'src/testing.ts', 'src/browser.ts', 'src/call.ts'],
  format: ['esm'], dts: declarations(true), clean: true, sourcemap: true, target: 'node20',
});
