import { defineProject, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// Every file here runs a real daemon (spawned through the CLI) plus real sockets; on a loaded
// CI box that is slower than the shared 20 s defaults allow. The browser app's pure logic tests
// (app/src/**/*.test.ts, no DOM) run here too.
export default mergeConfig(
  shared,
  defineProject({ test: { name: 'web', testTimeout: 60_000, hookTimeout: 180_000, include: ['src/**/*.test.ts', 'app/src/**/*.test.ts'] } }),
);
