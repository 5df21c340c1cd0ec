import { defineConfig } from 'vitest/config';

// `npx vitest run` at the root runs every project; each project also runs alone under Nx.
export default defineConfig({ test: { projects: ['libs/*', 'apps/*', 'tools', 'tools/torture'] } });
