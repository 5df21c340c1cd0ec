'use strict';
// What commander takes from node:child_process, loaded when it is first used. Inlined into
// dist/cli.cjs in its place (see tsup.hooks.config.ts): commander requires child_process at load
// only to spawn git-style executable subcommands, which cccc does not define, and loading it (with
// dgram and the socket list it pulls in) is a measurable part of every command's start-up.
// lazy-child-process.test.ts checks this covers every member commander uses.
module.exports = {
  get spawn() {
    return require('node:child_process').spawn;
  },
};
