import type { Command } from 'commander';
import { daemonPaths, resolveCcccHome } from '@cccc/ipc-protocol/call';
import { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT } from '@cccc/web/defaults';
import { probeDaemon, spawnDaemon } from '../daemon-process.js';
import { formatTable } from '../format.js';
import { collect, parsePositiveInt } from '../option-parsers.js';
import { printJson, printLines, reportError } from '../output.js';

/**
 * Start the daemon if none answers, then serve the Web until SIGINT / SIGTERM. Ctrl-C stops
 * only this Web server: the daemon and its agents keep running, so a browser tab or a terminal
 * closed by mistake never takes a team down (`cccc daemon stop` does that). The start-up text
 * says so, with the two places a newcomer needs: the URL and the daemon's log.
 */
async function runWeb(host: string, port: number, setExit: (code: number) => void): Promise<void> {
  const home = resolveCcccHome();
  try {
    const running = await probeDaemon(home);
    const daemon = running ? { pid: running.pid, how: 'already running' } : { pid: (await spawnDaemon(home, process.env)).pid, how: 'started' };
    const { startWebServer } = await loadWeb();
    const server = await startWebServer({ home, host, port });
    printLines([
      `CCCC is running. Web: ${server.url}/`,
      `  daemon  pid ${daemon.pid} (${daemon.how}), home ${home}`,
      `  log     ${daemonPaths(home).log}`,
      `  Ctrl-C  stops this Web server only; the daemon and its agents keep running (\`cccc daemon stop\` stops them)`,
    ]);
    await new Promise<void>((resolve) => {
      const stop = () => void server.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  } catch (error) {
    setExit(reportError(error));
  }
}

/** The Web package, loaded by the web commands only (it is most of a command's start-up). */
const loadWeb = async () => (await import('../packages.js')).importWeb();

/** `CCCC_WEB_HOST` / `CCCC_WEB_PORT` when set (e.g. a second home beside a running one), else 127.0.0.1:8848. */
function webDefaults(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const port = Number(env.CCCC_WEB_PORT);
  return {
    host: env.CCCC_WEB_HOST?.trim() || DEFAULT_WEB_HOST,
    port: Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_WEB_PORT,
  };
}

/**
 * `cccc web [--host --port]`, `cccc web token create|list|revoke`, and bare `cccc` (no
 * arguments): the daemon if needed plus the Web on 127.0.0.1:8848.
 */
export function registerWebCommands(program: Command, setExit: (code: number) => void): void {
  program.action(async () => {
    if (program.args.length > 0) {
      process.stderr.write(`error: unknown command '${program.args[0]}'\n`);
      program.outputHelp({ error: true });
      return setExit(1);
    }
    const { host, port } = webDefaults();
    await runWeb(host, port, setExit);
  });
  const web = program
    .command('web')
    .description('run the Web port (HTTP API + SSE) on a running daemon, starting one if needed')
    .option('--host <host>', 'bind address (non-loopback needs remote access started and an admin access token; default $CCCC_WEB_HOST, else 127.0.0.1)', webDefaults().host)
    .option('--port <port>', 'TCP port (default $CCCC_WEB_PORT, else 8848)', parsePositiveInt, webDefaults().port)
    .action((opts: { host: string; port: number }) => runWeb(opts.host, opts.port, setExit));

  const token = web.command('token').description('access tokens for the Web (access_tokens.yaml)');
  token
    .command('create')
    .description('create an access token and print it once (the token string is the secret)')
    .option('--admin', 'full access to every group and the config routes')
    .option('--group <group_id>', 'a group this token may reach (repeatable)', collect, [])
    .option('--user <user_id>', 'the user the token names', 'user')
    .option('--json', 'machine-readable output')
    .action(async (opts: { admin?: boolean; group: string[]; user: string; json?: boolean }) => {
      try {
        const { createAccessToken } = await loadWeb();
        const created = createAccessToken(resolveCcccHome(), { admin: opts.admin, groups: opts.group, userId: opts.user });
        if (opts.json) return printJson(created);
        process.stdout.write(`${created.token}\n`);
        process.stderr.write(
          `${created.is_admin ? 'admin token' : `token for ${created.allowed_groups.join(', ')}`} created; it is not shown again\n`,
        );
      } catch (error) {
        setExit(reportError(error));
      }
    });
  token
    .command('list')
    .description('list access tokens (by prefix; the full token is never shown again)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { json?: boolean }) => {
      try {
        const { readAccessTokens, tokenPrefix } = await loadWeb();
        const rows = readAccessTokens(resolveCcccHome()).map(({ token: t, ...rest }) => ({ id: tokenPrefix(t), ...rest }));
        if (opts.json) return printJson({ tokens: rows });
        if (rows.length === 0) return printLines(['no access tokens: the Web is open to anyone who can reach it (local trust)']);
        printLines(
          formatTable(
            ['id', 'user', 'admin', 'groups', 'created'],
            rows.map((r) => [r.id, r.user_id, r.is_admin ? 'yes' : 'no', r.is_admin ? '*' : r.allowed_groups.join(','), r.created_at]),
          ),
        );
      } catch (error) {
        setExit(reportError(error));
      }
    });
  token
    .command('revoke <id>')
    .description('revoke a token by its full value or a unique prefix (as `list` shows it)')
    .action(async (id: string) => {
      try {
        const { revokeAccessToken, tokenPrefix } = await loadWeb();
        const removed = revokeAccessToken(resolveCcccHome(), id);
        process.stdout.write(`revoked ${tokenPrefix(removed.token)}\n`);
      } catch (error) {
        setExit(reportError(error));
      }
    });
}
