import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { ALL_TOOLS, findTool, visibleTools, type Role } from './catalog.js';
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
  /**
   * How often to re-read the actor's capability exposure and send `notifications/tools/list_changed`
   * when it moved since the last listing (ms; 0 = never). Default 2000.
   */
  readonly toolsPollMs?: number;
}

interface DynamicTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: Record<string, unknown>;
  readonly capability_id: string;
}

/** What the actor sees now: cccc_* names and external (dynamic) tools. */
interface Exposure {
  readonly names: ReadonlySet<string>;
  readonly dynamic: readonly DynamicTool[];
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

/**
 * The daemon's answer (capability_state, view mcp_catalog: never waits on an actor start), else
 * the fallback catalog of the actor's role. The fallback grants nothing the daemon would refuse.
 */
async function currentExposure(options: McpServerOptions): Promise<Exposure> {
  const { identity, daemon } = options;
  try {
    const st = await callOp(daemon, 'capability_state', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, view: 'mcp_catalog' });
    return { names: new Set(st.visible_tools), dynamic: st.dynamic_tools ?? [] };
  } catch {
    return { names: new Set(visibleTools(await currentRole(options), identity.actorId).map((t) => t.name)), dynamic: [] };
  }
}

function signature(exposure: Exposure): string {
  return JSON.stringify([[...exposure.names].sort(), exposure.dynamic.map((t) => t.name)]);
}

function dynamicListing(tool: DynamicTool) {
  return {
    name: tool.name,
    description: tool.description ?? `${tool.name} (external MCP tool of ${tool.capability_id})`,
    inputSchema: { ...tool.inputSchema, type: 'object' as const },
  };
}

function listing(tool: Tool) {
  return { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool), annotations: tool.annotations };
}

/** An MCP server (not yet connected) exposing the cccc_* tools as one fixed actor. */
export function createMcpServer(options: McpServerOptions): Server {
  const version = options.version ?? '0.1.0';
  const server = new Server({ name: 'cccc', version }, { capabilities: { tools: { listChanged: true } } });
  let listed: string | undefined;

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const exposure = await currentExposure(options);
    listed = signature(exposure);
    const mine = (t: (typeof ALL_TOOLS)[number]) => !t.onlyFor || t.onlyFor === options.identity.actorId;
    return { tools: [...ALL_TOOLS.filter((t) => exposure.names.has(t.name) && mine(t)).map(listing), ...exposure.dynamic.map(dynamicListing)] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const name = request.params.name;
    const tool = findTool(name);
    const { identity, daemon } = options;
    try {
      if (!tool) {
        const exposure = await currentExposure(options);
        if (!exposure.dynamic.some((t) => t.name === name)) throw new ToolFailure('unknown_tool', `unknown tool: ${name}`, { tool: name });
        const args = request.params.arguments ?? {};
        const { result } = await callOp(daemon, 'capability_tool_call', { group_id: identity.groupId, actor_id: identity.actorId, by: identity.actorId, tool_name: name, arguments: args });
        return result as { content: Array<{ type: 'text'; text: string }> };
      }
      if (tool.onlyFor && tool.onlyFor !== identity.actorId) {
        throw new ToolFailure('permission_denied', `${tool.name} is only available to the ${tool.onlyFor} actor`, { tool: tool.name, actor_id: identity.actorId });
      }
      const run = tool.prepare(request.params.arguments);
      if (tool.pack && !(await currentExposure(options)).names.has(tool.name)) {
        throw new ToolFailure('permission_denied', `${tool.name} needs ${tool.pack}, which is not enabled for ${identity.actorId}`, { tool: tool.name, actor_id: identity.actorId, capability_id: tool.pack });
      }
      return toolSuccess(await run({ identity, daemon }));
    } catch (error) {
      return toolError(error);
    }
  });

  // Exposure follows capability_enable / _block: when it moved since the last listing, ask the
  // client to list again. The timer ends with the connection.
  const pollMs = options.toolsPollMs ?? 2000;
  if (pollMs > 0) {
    let busy = false;
    let connected = false;
    const timer = setInterval(() => {
      if (!server.transport) {
        if (connected) clearInterval(timer);
        return;
      }
      connected = true;
      if (busy || listed === undefined) return;
      busy = true;
      void currentExposure(options)
        .then(async (exposure) => {
          const now = signature(exposure);
          if (now !== listed) {
            listed = now;
            await server.sendToolListChanged();
          }
        })
        .catch(() => undefined)
        .finally(() => (busy = false));
    }, pollMs);
    timer.unref();
  }
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
  const pollMs = Number(options.env.CCCC_MCP_TOOLS_POLL_MS ?? '');
  const server = createMcpServer({
    identity: parsed.identity,
    daemon,
    ...(options.version ? { version: options.version } : {}),
    ...(Number.isInteger(pollMs) && pollMs >= 0 && options.env.CCCC_MCP_TOOLS_POLL_MS?.trim() ? { toolsPollMs: pollMs } : {}),
  });
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
