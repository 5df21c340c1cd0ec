// @cccc/mcp: the agent-facing MCP server (cccc_* tools over stdio) and its launch wiring.
export { createMcpServer, runMcpStdio, type McpServerOptions, type RunMcpOptions } from './server.js';
export { readIdentity, IDENTITY_ENV, type McpIdentity, type IdentityParse } from './identity.js';
export { ALL_TOOLS, BASE_TOOLS, ROLE_DEFAULT_PACKS, visibleTools, findTool, type Role } from './catalog.js';
export { callOp, ToolFailure, type DaemonPort } from './daemon-port.js';
export { parseToolArgs, toolInputJsonSchema, type Tool, type ToolDef, type ToolAnnotations, type ToolContext } from './tool.js';
export { toolError, toolSuccess, type ToolResult } from './tool-result.js';
export {
  mcpLaunchArgs,
  withMcpLaunchArgs,
  claudeMcpConfig,
  codexMcpOverrides,
  printMcpConfig,
  isMcpWiredRuntime,
  shellQuote,
  MCP_SERVER_NAME,
  type McpServerCommand,
  type McpWiredRuntime,
} from './launch.js';
