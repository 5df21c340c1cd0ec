/** Who this MCP server acts as. Fixed at startup from the environment; no tool argument changes it. */
export interface McpIdentity {
  readonly home: string;
  readonly groupId: string;
  readonly actorId: string;
}

export const IDENTITY_ENV = ['CCCC_HOME', 'CCCC_GROUP_ID', 'CCCC_ACTOR_ID'] as const;

export type IdentityParse = { ok: true; identity: McpIdentity } | { ok: false; missing: string[]; message: string };

/**
 * Read the identity triple. All three are required: a server without them could only guess a
 * principal, and guessing is how one agent ends up speaking as another.
 */
export function readIdentity(env: Readonly<Record<string, string | undefined>>): IdentityParse {
  const missing = IDENTITY_ENV.filter((key) => !env[key]?.trim());
  if (missing.length > 0) {
    return {
      ok: false,
      missing,
      message: `cccc mcp: missing ${missing.join(', ')}; the MCP server runs as one actor and takes its identity only from CCCC_HOME, CCCC_GROUP_ID and CCCC_ACTOR_ID`,
    };
  }
  return { ok: true, identity: { home: env.CCCC_HOME!.trim(), groupId: env.CCCC_GROUP_ID!.trim(), actorId: env.CCCC_ACTOR_ID!.trim() } };
}
