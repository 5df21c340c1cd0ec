import { defineConfig } from 'tsup';
import { declarations } from '../../tsup.declarations.js';

export default defineConfig({ entry: ['src/index.ts', 'src/defaults.ts'], format: ['esm'], dts: declarations(true), clean: true, sourcemap: true, target: 'node20' });
