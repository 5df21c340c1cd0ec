// Test support: the fake PTY, the scripted fake agent (in-memory and as a real script), and the
// PtySession contract suite that every implementation must pass.
export { FakePtySession, createFakePtySpawner, type FakePtyProcess, type FakeProgram } from './testing/fake-pty.js';
export { fakeAgentProgram, type FakeAgentOptions } from './testing/fake-agent-program.js';
export { fakeAgentScriptPath, fakeAgentArgv, installFakeAgentAs } from './testing/fake-agent-path.js';
export { OutputCollector, waitForExit } from './testing/collect.js';
export { describePtyContract, type PtyContractOptions, type PtyContractCase } from './testing/pty-contract.js';
export { describeManagedRuntimeContract, type ManagedContractOptions, type ManagedHarness } from './testing/managed-contract.js';
