// Not started yet: this package is built by issue 9 (MCP server for agents). It exports nothing until then.
export {};
