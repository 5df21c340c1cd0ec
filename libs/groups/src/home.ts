// `@cccc/groups/home`: where a CCCC_HOME keeps things, the active group, and command lines, without
// the group services. The CLI reads these for nearly every command and loads nothing else of
// this package for them (a whole-package import costs a command ~0.12 s of start-up).
export { HomeLayout, resolveHome } from './home-layout.js';
export { readActiveGroupId, writeActiveGroupId } from './active-group.js';
export { splitCommandLine, normalizeCommand } from './command-line.js';
