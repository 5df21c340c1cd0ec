import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { findTool, visibleTools, type Role } from './catalog.js';
import { callOp, ToolFailure, type DaemonPort } from './daemon-port.js';
import { readIdentity, type McpIdentity } from './identity.js';
import { toolInputJsonSchema, type Tool } from './tool.js';
import { toolError, toolSuccess } from './tool-result.js';
import { roleOf } from './tools/bootstrap.js';

export interface McpServerOptions {
  readonly identity: McpIdentity;
  readonly daemon: DaemonPort;
  /** Reported in serverInfo.version and initialize `_meta["cccc/build"]`. */
  readonly version?: string;
}

/** The role as the daemon sees it now; an unreachable daemon shows the peer tool set. */
async function currentRole({ identity, daemon }: McpServerOptions): Promise<Role> {
  try {
    const { actors } = await callOp(daemon, 'actor_list', { group_id: identity.groupId });
    return roleOf(actors, identity.actorId);
  } catch {
    return 'peer';
  }
}

function listing(tool: Tool) {
  return { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool), annotations: tool.annotations };
}

/** An MCP server (not yet connected) exposing the cccc_* tools as one fixed actor. */
export function createMcpServer(options: McpServerOptions): Server {
  const version = options.version ?? '0.1.0';
  const server = new Server({ name: 'cccc', version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: visibleTools(await currentRole(options)).map(listing),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = findTool(request.params.name);
    try {
      if (!tool) throw new ToolFailure('unknown_tool', `unknown tool: ${request.params.name}`, { tool: request.params.name });
      const run = tool.prepare(request.params.arguments);
      if (tool.foremanOnly && (await currentRole(options)) !== 'foreman') {
        throw new ToolFailure('permission_denied', `${tool.name} is for the foreman`, { tool: tool.name, actor_id: options.identity.actorId });
      }
      return toolSuccess(await run({ identity: options.identity, daemon: options.daemon }));
    } catch (error) {
      return toolError(error);
    }
  });
  return server;
}

export interface RunMcpOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stderr: { write(text: string): unknown };
  readonly version?: string;
}

/**
 * `cccc mcp`: serve over stdio until stdin closes. Returns the exit code; a missing identity is
 * refused before anything is served.
 */
export async function runMcpStdio(options: RunMcpOptions): Promise<number> {
  const parsed = readIdentity(options.env);
  if (!parsed.ok) {
    options.stderr.write(`${parsed.message}\n`);
    return 2;
  }
  const daemon = new DaemonClient({ home: parsed.identity.home });
  const server = createMcpServer({ identity: parsed.identity, daemon, ...(options.version ? { version: options.version } : {}) });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
  return 0;
}
