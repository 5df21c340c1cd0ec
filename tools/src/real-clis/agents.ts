import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// How the real CLIs are pointed at the fake model, per shared/design/REAL_AGENTS.md.

export const FAKE_API_KEY = 'sk-ant-fake-key-for-tests-0123456789abcdef';

/** A private HOME and a work folder inside it, removed by `dispose`. */
export function tempAgentHome(prefix = 'real-cli-'): { home: string; cwd: string; dispose(): void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const cwd = join(home, 'work');
  mkdirSync(cwd);
  return { home, cwd, dispose: () => rmSync(home, { recursive: true, force: true, maxRetries: 3 }) };
}

/** The environment for Claude Code: the fake model's URL, a fake key, no telemetry, a private HOME. */
export function claudeEnv(modelUrl: string, home: string, path: string): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/**
 * `$HOME/.claude.json` so the interactive TUI asks nothing first: onboarding done, the fake key
 * approved (by its last 20 characters), the work folder trusted; with `acceptBypassPermissions`
 * also the warning that `--dangerously-skip-permissions` (the catalog's claude runtime) shows
 * first, which defaults to "No, exit".
 */
export function seedClaudeHome(home: string, cwd: string, options: { apiKey?: string; acceptBypassPermissions?: boolean } = {}): void {
  const apiKey = options.apiKey ?? FAKE_API_KEY;
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true } },
      ...(options.acceptBypassPermissions ? { bypassPermissionsModeAccepted: true } : {}),
    }),
  );
  if (options.acceptBypassPermissions) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ skipDangerousModePermissionPrompt: true }));
  }
}

/** `-c` flags that make Codex use the fake Responses API as provider `fake`. */
export function codexProviderArgs(modelUrl: string): string[] {
  return [
    '-c',
    `model_providers.fake={name="fake",base_url="${modelUrl}/v1",wire_api="responses",env_key="FAKE_KEY"}`,
    '-c',
    'model_provider=fake',
    '-c',
    'model=fake-model',
  ];
}

/** The same provider as `codexProviderArgs`, in `$CODEX_HOME/config.toml` (for launches whose argv is fixed). */
export function writeCodexConfig(codexHome: string, modelUrl: string): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model_provider = "fake"',
      'model = "fake-model"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${modelUrl}/v1"`,
      'wire_api = "responses"',
      'env_key = "FAKE_KEY"',
      '',
    ].join('\n'),
  );
}

/** The environment for Codex: its own CODEX_HOME (which must exist) and the provider's key. */
export function codexEnv(home: string, path: string): Record<string, string> {
  const codexHome = join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  return { PATH: path, HOME: home, CODEX_HOME: codexHome, FAKE_KEY: 'fake-codex-key', LANG: 'C.UTF-8' };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in its own process group with stdin closed, and kills the whole group when
 * it outlives `timeoutMs` (the promise then rejects with what it printed).
 */
export function runBounded(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${options.timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child.pid); // anything the CLI left running in its group
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** SIGKILL to a process group; a group that is already gone is fine. */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * `opencode.json` in `cwd`: a custom OpenAI-compatible provider `fake` (chat completions at the
 * fake model's `/v1`) as the default model; no autoupdate, no sharing.
 */
export function writeOpencodeConfig(cwd: string, modelUrl: string, extra: Record<string, unknown> = {}): void {
  const config = {
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${modelUrl}/v1`, apiKey: 'fake-opencode-key' },
        models: { 'fake-model': { name: 'Fake model' } },
      },
    },
    model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    ...extra,
  };
  writeFileSync(join(cwd, 'opencode.json'), JSON.stringify(config));
}

/**
 * Kilo (an opencode fork) reads the same config shape from the project's `kilo.json`: the fake
 * model as an OpenAI-compatible provider.
 */
export function writeKiloConfig(cwd: string, modelUrl: string, extra: Record<string, unknown> = {}): void {
  const config = {
    provider: {
      fake: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: `${modelUrl}/v1`, apiKey: 'fake-kilo-key' },
        models: { 'fake-model': { name: 'Fake model' } },
      },
    },
    model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
    ...extra,
  };
  writeFileSync(join(cwd, 'kilo.json'), JSON.stringify(config));
}

/** Kilo with a private HOME and nothing fetched from the network: no update check or model list. */
export function kiloEnv(home: string, path: string): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    LANG: 'C.UTF-8',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_MODELS_FETCH: '1',
  };
}

/**
 * GitHub Copilot CLI offline against the fake model (its documented BYOK variables): a custom
 * OpenAI-compatible provider, no GitHub sign-in, no update download, a private HOME.
 */
export function copilotEnv(modelUrl: string, home: string, path: string): Record<string, string> {
  return {
    PATH: path,
    HOME: home,
    LANG: 'C.UTF-8',
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: `${modelUrl}/v1`,
    COPILOT_PROVIDER_API_KEY: 'fake-copilot-key',
    COPILOT_MODEL: 'fake-model',
  };
}

export function opencodeEnv(home: string, path: string): Record<string, string> {
  return { PATH: path, HOME: home, LANG: 'C.UTF-8', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1' };
}
