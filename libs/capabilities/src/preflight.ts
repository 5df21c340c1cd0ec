import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { CapabilityRecord } from './records.js';

// The deterministic blockers an external MCP server is checked for before anything is installed
// or started: required env names, runtime binaries on PATH, a sane remote URL, a usable spec.

export type PreflightCode = 'ok' | 'missing_required_env' | 'missing_binary' | 'invalid_remote_url' | 'invalid_install_spec' | 'unsupported_install_mode';

export interface PreflightResult {
  readonly ok: boolean;
  readonly code: PreflightCode;
  readonly message: string;
  readonly required_env?: string[];
  readonly missing_binaries?: string[];
}

export interface PreflightEnv {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether an executable of this name (or path) is runnable. */
  readonly hasBinary: (name: string) => boolean;
}

export function pathLookup(env: Readonly<Record<string, string | undefined>>): (name: string) => boolean {
  return (name) => {
    const candidates = isAbsolute(name) ? [name] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, name));
    return candidates.some((path) => {
      try {
        accessSync(path, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export function commandArgv(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? value.trim().split(/\s+/) : [];
  return strings(value);
}

/** The env names a record needs; values may come from its install_spec.env or the daemon's env. */
export function requiredEnv(record: CapabilityRecord): string[] {
  return [...new Set(strings(record.install_spec?.required_env))].sort();
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*(@[A-Za-z0-9._^~<>=*-]+)?$/;

export function preflight(record: CapabilityRecord, host: PreflightEnv): PreflightResult {
  const spec = record.install_spec ?? {};
  const specEnv = (spec.env ?? {}) as Record<string, unknown>;
  const missingEnv = requiredEnv(record).filter((key) => !(typeof specEnv[key] === 'string' && specEnv[key]) && !host.env[key]);
  if (missingEnv.length > 0) {
    return { ok: false, code: 'missing_required_env', message: `set ${missingEnv.join(', ')} first`, required_env: missingEnv };
  }
  switch (record.install_mode) {
    case 'remote_only': {
      const raw = typeof spec.url === 'string' ? spec.url : '';
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || !['https:', 'http:'].includes(url.protocol) || !url.hostname) {
        return { ok: false, code: 'invalid_remote_url', message: `not an http(s) URL: ${raw || '(empty)'}` };
      }
      return { ok: true, code: 'ok', message: 'remote endpoint looks valid' };
    }
    case 'package': {
      const registry = String(spec.registry ?? 'npm');
      if (registry !== 'npm') return { ok: false, code: 'unsupported_install_mode', message: `package registry ${registry} is not supported here` };
      const pkg = typeof spec.package === 'string' ? spec.package : '';
      if (!NPM_NAME.test(pkg)) return { ok: false, code: 'invalid_install_spec', message: `not an npm package name: ${pkg || '(empty)'}` };
      const missing = ['npm', 'node'].filter((bin) => !host.hasBinary(bin));
      if (missing.length > 0) return { ok: false, code: 'missing_binary', message: `not on PATH: ${missing.join(', ')}`, missing_binaries: missing };
      return { ok: true, code: 'ok', message: 'npm package can be installed' };
    }
    case 'command': {
      const argv = commandArgv(spec.command);
      if (argv.length === 0) return { ok: false, code: 'invalid_install_spec', message: 'install_spec.command is empty' };
      if (!host.hasBinary(argv[0]!)) return { ok: false, code: 'missing_binary', message: `not on PATH: ${argv[0]}`, missing_binaries: [argv[0]!] };
      return { ok: true, code: 'ok', message: 'command is runnable' };
    }
    default:
      return { ok: false, code: 'unsupported_install_mode', message: `install mode ${record.install_mode ?? '(none)'} cannot run` };
  }
}
