import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { capabilityError } from './errors.js';
import type { ExternalRuntime } from './external.js';
import { commandArgv } from './preflight.js';
import type { CapabilityRecord } from './records.js';
import type { Installation } from './state.js';

const run = promisify(execFile);

export interface NodeExternalRuntimeOptions {
  /** Every artifact lives below this directory; uninstall never removes anything outside it. */
  readonly cacheDir: string;
  /** The daemon's environment: PATH and HOME reach the servers, nothing else of it does. */
  readonly env?: NodeJS.ProcessEnv;
  readonly installTimeoutMs?: number;
  readonly startTimeoutMs?: number;
  readonly callTimeoutMs?: number;
  /** The npm executable (default `npm` on PATH). */
  readonly npm?: string;
}

/** Why an install failed, as `last_error_code`. */
type InstallErrorCode = 'npm_install_failed' | 'bin_not_found' | 'server_start_failed' | 'list_tools_failed' | 'remote_unreachable' | 'unsupported_install_mode';

class InstallError extends Error {
  constructor(
    readonly code: InstallErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The MCP SDK's client side, imported when a capability's server first starts rather than with
 * the daemon: with its ajv and zod-to-json-schema it is ~20 MB resident, which a daemon that
 * runs no external capability never needs (issue 35, memory at rest).
 */
async function mcpClientSdk() {
  const [{ Client }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return { Client, StdioClientTransport, StreamableHTTPClientTransport };
}

/**
 * External MCP servers for real: npm packages installed into the capability cache and run over
 * stdio, local commands run over stdio, remote servers reached over streamable HTTP. One MCP
 * client per capability, started on first use and kept until uninstall or close.
 */
export class NodeExternalRuntime implements ExternalRuntime {
  private readonly clients = new Map<string, Promise<Client>>();
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: NodeExternalRuntimeOptions) {
    this.env = options.env ?? process.env;
  }

  async install(record: CapabilityRecord, artifactDir: string): Promise<Installation> {
    const base = {
      capability_id: record.capability_id,
      artifact_id: relative(this.options.cacheDir, artifactDir) || artifactDir,
      install_mode: record.install_mode === 'package' ? `package:${String(record.install_spec?.registry ?? 'npm')}` : String(record.install_mode),
      installed_at: new Date().toISOString(),
    };
    try {
      const launch = await this.prepare(record, artifactDir);
      await this.stop(record.capability_id);
      const installation: Installation = { ...base, install_state: 'installed', ...launch, tools: [] };
      const client = await this.client(record, installation);
      let listed;
      try {
        listed = await client.listTools(undefined, { timeout: this.options.startTimeoutMs ?? 30_000 });
      } catch (error) {
        throw new InstallError('list_tools_failed', (error as Error).message);
      }
      return {
        ...installation,
        tools: listed.tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description.slice(0, 1000) } : {}), inputSchema: t.inputSchema as Record<string, unknown> })),
      };
    } catch (error) {
      await this.stop(record.capability_id);
      const code = error instanceof InstallError ? error.code : 'server_start_failed';
      return { ...base, install_state: 'install_failed', tools: [], last_error_code: code, last_error: firstLine((error as Error).message) };
    }
  }

  async uninstall(installation: Installation): Promise<void> {
    await this.stop(installation.capability_id);
    const dir = resolve(this.options.cacheDir, installation.artifact_id);
    if (dir.startsWith(resolve(this.options.cacheDir) + '/') && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }

  async callTool(record: CapabilityRecord, installation: Installation, toolName: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    let client: Client;
    try {
      client = await this.client(record, installation);
    } catch (error) {
      throw capabilityError('capability_tool_call_failed', `could not start ${record.capability_id}: ${firstLine((error as Error).message)}`, { capability_id: record.capability_id });
    }
    try {
      return (await client.callTool({ name: toolName, arguments: args }, undefined, { timeout: this.options.callTimeoutMs ?? 60_000 })) as Record<string, unknown>;
    } catch (error) {
      // A dead transport is restarted on the next call.
      await this.stop(record.capability_id);
      throw capabilityError('capability_tool_call_failed', `${record.capability_id} ${toolName}: ${firstLine((error as Error).message)}`, { capability_id: record.capability_id, tool: toolName });
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.keys()].map((id) => this.stop(id)));
  }

  /** Install what must be installed; answer how to launch the server. */
  private async prepare(record: CapabilityRecord, artifactDir: string): Promise<Pick<Installation, 'argv' | 'cwd' | 'url'>> {
    const spec = record.install_spec ?? {};
    const extra = Array.isArray(spec.args) ? spec.args.map(String) : [];
    switch (record.install_mode) {
      case 'package': {
        const pkg = String(spec.package);
        const version = typeof spec.version === 'string' && spec.version ? `@${spec.version}` : '';
        mkdirSync(artifactDir, { recursive: true });
        try {
          await run(this.options.npm ?? 'npm', ['install', '--prefix', artifactDir, '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', `${pkg}${version}`], {
            env: this.childEnv({}),
            timeout: this.options.installTimeoutMs ?? 300_000,
            maxBuffer: 16 * 1024 * 1024,
          });
        } catch (error) {
          const e = error as { stderr?: string; message: string };
          throw new InstallError('npm_install_failed', firstLine(e.stderr?.split('\n').find((l) => l.includes('ERR')) ?? e.message));
        }
        const bin = packageBin(join(artifactDir, 'node_modules', ...pkg.split('/')), typeof spec.bin === 'string' ? spec.bin : undefined);
        if (!bin) throw new InstallError('bin_not_found', `${pkg} declares no runnable bin`);
        return { argv: [process.execPath, bin, ...extra], cwd: artifactDir };
      }
      case 'command': {
        const argv = [...commandArgv(spec.command), ...extra];
        return { argv, ...(typeof spec.cwd === 'string' ? { cwd: spec.cwd } : {}) };
      }
      case 'remote_only':
        return { url: String(spec.url) };
      default:
        throw new InstallError('unsupported_install_mode', `install mode ${String(record.install_mode)} cannot run`);
    }
  }

  private client(record: CapabilityRecord, installation: Installation): Promise<Client> {
    const existing = this.clients.get(record.capability_id);
    if (existing) return existing;
    const started = this.start(record, installation);
    this.clients.set(record.capability_id, started);
    started.catch(() => this.clients.delete(record.capability_id));
    return started;
  }

  private async start(record: CapabilityRecord, installation: Installation): Promise<Client> {
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await mcpClientSdk();
    const client = new Client({ name: 'cccc-capabilities', version: '0.1.0' });
    const env = (record.install_spec?.env ?? {}) as Record<string, string>;
    const timeout = this.options.startTimeoutMs ?? 30_000;
    if (installation.url) {
      try {
        await withTimeout(client.connect(new StreamableHTTPClientTransport(new URL(installation.url))), timeout);
      } catch (error) {
        await client.close().catch(() => undefined);
        throw new InstallError('remote_unreachable', (error as Error).message);
      }
      return client;
    }
    const [command, ...args] = installation.argv ?? [];
    if (!command) throw new InstallError('server_start_failed', 'no command to run');
    const transport = new StdioClientTransport({ command, args, env: this.childEnv(env), ...(installation.cwd ? { cwd: installation.cwd } : {}), stderr: 'ignore' });
    try {
      await withTimeout(client.connect(transport), timeout);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new InstallError('server_start_failed', (error as Error).message);
    }
    return client;
  }

  private async stop(capabilityId: string): Promise<void> {
    const pending = this.clients.get(capabilityId);
    this.clients.delete(capabilityId);
    const client = await pending?.catch(() => undefined);
    await client?.close().catch(() => undefined);
  }

  /**
   * The record's own env plus the host's path, locale, TLS trust and proxy settings (npm needs
   * them to reach its registry): the daemon's other variables do not leak to servers.
   */
  private childEnv(own: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.env)) if (value !== undefined && HOST_ENV.test(key)) out[key] = value;
    for (const [k, v] of Object.entries(own)) if (typeof v === 'string') out[k] = v;
    return out;
  }
}

const HOST_ENV = /^(PATH|HOME|USER|TMPDIR|LANG|LC_[A-Z]+|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|npm_config_[a-z_]+|NPM_CONFIG_[A-Z_]+)$/;

function packageBin(dir: string, wanted: string | undefined): string | undefined {
  let manifest: { bin?: string | Record<string, string>; name?: string };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  const bin = manifest.bin;
  const rel = typeof bin === 'string' ? bin : bin ? (wanted ? bin[wanted] : Object.values(bin)[0]) : undefined;
  return rel ? join(dir, rel) : undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolvePromise(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300);
}
