// Codex's side of the fake agent's hook configuration: `-c key=value` overrides, read the way
// Codex reads them (the value is TOML, or the raw text when it does not parse as TOML), the
// `hooks.<Event>` tables, and the trust entries (`hooks.state."<key>".trusted_hash`) without
// which Codex does not run a hook that came from its command line.
import { createHash } from 'node:crypto';

/** Parse one TOML value (strings, numbers, booleans, arrays, inline tables); throws on bad input. */
export function parseTomlValue(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && /[ \t\r\n]/.test(text[i])) i++;
  };
  const fail = (what) => {
    throw new Error(`TOML: ${what} at ${i}`);
  };
  const basicString = () => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (text[i] !== '"') fail('unterminated string');
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const literalString = () => {
    const end = text.indexOf("'", i + 1);
    if (end < 0) fail('unterminated literal string');
    const s = text.slice(i + 1, end);
    i = end + 1;
    return s;
  };
  const key = () => {
    ws();
    const parts = [];
    for (;;) {
      if (text[i] === '"') parts.push(basicString());
      else if (text[i] === "'") parts.push(literalString());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
        if (!m) fail('bad key');
        parts.push(m[0]);
        i += m[0].length;
      }
      ws();
      if (text[i] !== '.') return parts;
      i++;
      ws();
    }
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '"') return basicString();
    if (c === "'") return literalString();
    if (c === '[') {
      i++;
      const out = [];
      for (;;) {
        ws();
        if (text[i] === ']') return i++, out;
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected , or ]');
      }
    }
    if (c === '{') {
      i++;
      const out = {};
      ws();
      if (text[i] === '}') return i++, out;
      for (;;) {
        const path = key();
        if (text[i] !== '=') fail('expected =');
        i++;
        setPath(out, path, value());
        ws();
        if (text[i] === '}') return i++, out;
        if (text[i] !== ',') fail('expected , or }');
        i++;
      }
    }
    const m = /^(true|false|[+-]?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?)(?=[\s,\]}]|$)/.exec(text.slice(i));
    if (!m) fail('bad value');
    i += m[0].length;
    if (m[0] === 'true' || m[0] === 'false') return m[0] === 'true';
    return Number(m[0].replace(/_/g, ''));
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing input');
  return v;
}

function setPath(target, path, v) {
  let node = target;
  for (const part of path.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null || Array.isArray(node[part])) node[part] = {};
    node = node[part];
  }
  node[path.at(-1)] = v;
}

/** `a.b."c.d"` → ['a', 'b', 'c.d']. */
export function parseKeyPath(text) {
  const wrapped = parseTomlValue(`{${text} = 0}`);
  const path = [];
  let node = wrapped;
  for (;;) {
    const [k] = Object.keys(node);
    path.push(k);
    if (typeof node[k] !== 'object') return path;
    node = node[k];
  }
}

/** Apply `-c key=value` overrides, Codex style: a value that is not TOML is taken as a string. */
export function applyOverrides(overrides) {
  const config = {};
  for (const o of overrides) {
    const eq = o.indexOf('=');
    if (eq <= 0) throw new Error(`Invalid override (missing '='): ${o}`);
    const path = parseKeyPath(o.slice(0, eq).trim());
    const raw = o.slice(eq + 1).trim();
    let v;
    try {
      v = parseTomlValue(raw);
    } catch {
      v = raw;
    }
    setPath(config, path, v);
  }
  return config;
}

export const CODEX_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Notification',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
];

export const snakeEvent = (event) => event.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();

function sortedJson(v) {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** The fingerprint Codex trusts: sha256 of the compact, sorted-key JSON of the normalized hook. */
export function trustHash(event, handler) {
  const body = {
    event_name: snakeEvent(event),
    hooks: [{ async: handler.async ?? false, command: handler.command, timeout: handler.timeout ?? 600, type: handler.type }],
  };
  return `sha256:${createHash('sha256').update(sortedJson(body)).digest('hex')}`;
}

/**
 * The command hooks a configuration declares, per event, each with whether it is trusted. Hooks
 * given on the command line live at `/<session-flags>/config.toml`; a hook runs only when
 * `hooks.state` holds its key with the hash of exactly that hook. Throws, like Codex refusing to
 * start, when `hooks` is not a table of event → array of `{matcher?, hooks: [handler]}`.
 */
export function codexHooks(config) {
  const hooks = config.hooks;
  if (hooks === undefined) return {};
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) throw new Error('invalid type for `hooks`: expected a table');
  const state = hooks.state && typeof hooks.state === 'object' ? hooks.state : {};
  const byEvent = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (event === 'state') continue;
    if (!CODEX_EVENTS.includes(event)) throw new Error(`unknown hook event \`${event}\` in \`hooks\``);
    if (!Array.isArray(groups)) throw new Error(`invalid type for \`hooks.${event}\`: expected an array`);
    byEvent[event] = groups.flatMap((group, g) => {
      if (!group || typeof group !== 'object' || !Array.isArray(group.hooks)) throw new Error(`invalid hook group in \`hooks.${event}\``);
      return group.hooks.map((handler, h) => {
        if (!handler || handler.type !== 'command' || typeof handler.command !== 'string') throw new Error(`invalid hook handler in \`hooks.${event}\``);
        const key = `/<session-flags>/config.toml:${snakeEvent(event)}:${g}:${h}`;
        const trusted = state[key]?.trusted_hash === trustHash(event, handler);
        return { command: handler.command, timeout: handler.timeout, matcher: group.matcher, trusted };
      });
    });
  }
  return byEvent;
}
