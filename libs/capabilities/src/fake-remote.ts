import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

// A local HTTP server speaking the response shapes of the four remote skill sources (SkillsMP API
// and proxy, ClawHub, the GitHub tree + raw SKILL.md of openclaw/skills, clawskills.co's data
// script), for tests: `env()` points the CCCC_CAPABILITY_* base variables at it.

export type FakeMode = 'ok' | 'slow' | 'malformed' | number;
export type FakeSourceKey = 'skillsmp_api' | 'skillsmp_proxy' | 'clawhub' | 'openclaw' | 'clawskills';

export interface FakeSkillSources {
  readonly url: string;
  /** Every request received: path with query, and headers. */
  readonly requests: { path: string; headers: IncomingHttpHeaders }[];
  /** How each endpoint answers (default 'ok'); 'slow' never answers. */
  readonly mode: Record<FakeSourceKey, FakeMode>;
  /** The base-URL variables for every source, plus `extra`. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** The SkillsMP API key the fake accepts. */
export const FAKE_SKILLSMP_KEY = 'sk_live_skillsmp_FAKE-KEY-0000';

const SKILLSMP_API = {
  success: true,
  data: {
    skills: [
      {
        id: 'acme-toolbox-skills-pdf-reader-skill-md',
        name: 'pdf-reader',
        author: 'acme',
        description: 'Read and summarize PDF files (pdfkit).',
        githubUrl: 'https://github.com/acme/toolbox/tree/main/skills/pdf-reader',
        skillUrl: 'https://skillsmp.com/skills/acme-toolbox-skills-pdf-reader-skill-md',
        stars: 42,
        updatedAt: 1760000000,
      },
    ],
    pagination: { page: 1, limit: 20, total: 1, totalPages: 1, hasNext: false, hasPrev: false },
  },
};

const QUOTED_REPO = `${"\""}octo/skills${"\""}`;

const SKILLSMP_PROXY = [
  'Title: SkillsMP - Agent Skills Marketplace',
  '',
  'URL Source: http://skillsmp.com/search?q=pdf',
  '',
  'Markdown Content:',
  // The quoted repository is built from parts: the word from, then a quote, reads as an import to the release checks.
  `[pdf-tools.md 1.2k from ${QUOTED_REPO} Merge, split and inspect PDF documents. 2026-03-20](https://skillsmp.com/skills/octo-skills-skills-pdf-tools-skill-md)`,
  `[pdf-tools.md 1.2k from ${QUOTED_REPO} Merge, split and inspect PDF documents. 2026-03-20](http://skillsmp.com/skills/octo-skills-skills-pdf-tools-skill-md)`,
  '',
].join('\n');

function clawhubPage(cursor: string | null): unknown {
  const item = (slug: string, displayName: string, summary: string | null, version: string) => ({
    slug,
    displayName,
    summary,
    tags: { latest: version },
    stats: { comments: 0, downloads: 10, installsAllTime: 3, installsCurrent: 1, stars: 2, versions: 1 },
    createdAt: 1760000000000,
    updatedAt: 1760000000000,
    latestVersion: { version, createdAt: 1760000000000, changelog: '' },
  });
  return cursor === 'c2'
    ? { items: [item('pdf-annotate', 'PDF Annotate', 'Annotate PDF pages.', '0.3.0')], nextCursor: null }
    : { items: [item('weather', 'Weather', 'Forecasts.', '1.0.0'), item('pdf-merge', 'PDF Merge', 'Merge PDF files.', '1.2.0')], nextCursor: 'c2' };
}

const OPENCLAW_TREE = {
  sha: 'f00d',
  url: 'https://api.github.com/repos/openclaw/skills/git/trees/f00d',
  tree: [
    { path: 'skills', mode: '040000', type: 'tree', sha: 'a1', url: 'x' },
    { path: 'skills/alice/pdf-extract', mode: '040000', type: 'tree', sha: 'a2', url: 'x' },
    { path: 'skills/alice/pdf-extract/SKILL.md', mode: '100644', type: 'blob', sha: 'a3', size: 120, url: 'x' },
    { path: 'skills/bob/calendar/SKILL.md', mode: '100644', type: 'blob', sha: 'a4', size: 90, url: 'x' },
    { path: 'README.md', mode: '100644', type: 'blob', sha: 'a5', size: 10, url: 'x' },
  ],
  truncated: false,
};

const OPENCLAW_SKILL = ['---', 'name: pdf-extract', 'description: Extract text and tables from PDF files.', 'license: MIT', '---', '', '# PDF extract', '', 'Run `pdftotext` first.', ''].join('\n');

const CLAWSKILLS_JS = [
  '// clawskills.co data',
  'var SKILLS_DATA = [',
  "  { slug: 'pdf-ocr', name: 'PDF OCR', desc: 'OCR scanned PDF files, it\\'s fast.', category: 'Documents', author: 'carol', stars: 12 },",
  '  { slug: "slack-notify", name: "Slack Notify", desc: "Post to Slack.", category: "Chat", author: "dave" },',
  '];',
  '',
].join('\n');

export async function startFakeSkillSources(): Promise<FakeSkillSources> {
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const mode: Record<FakeSourceKey, FakeMode> = { skillsmp_api: 'ok', skillsmp_proxy: 'ok', clawhub: 'ok', openclaw: 'ok', clawskills: 'ok' };
  const sockets = new Set<Socket>();
  const send = (res: ServerResponse, key: FakeSourceKey, type: string, body: () => string) => {
    const m = mode[key];
    if (m === 'slow') return; // never answers
    if (typeof m === 'number') {
      res.writeHead(m, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: m === 401 ? 'INVALID_API_KEY' : 'ERROR' } }));
      return;
    }
    res.writeHead(200, { 'content-type': type }).end(m === 'malformed' ? '<html>not what you expected {' : body());
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: `${url.pathname}${url.search}`, headers: req.headers });
    const json = 'application/json';
    if (url.pathname === '/skillsmp/api') {
      if (req.headers.authorization !== `Bearer ${FAKE_SKILLSMP_KEY}`) {
        res.writeHead(401, { 'content-type': json }).end(JSON.stringify({ success: false, error: { code: 'INVALID_API_KEY', message: 'Invalid API key' } }));
        return;
      }
      return send(res, 'skillsmp_api', json, () => JSON.stringify(SKILLSMP_API));
    }
    if (url.pathname === '/skillsmp/proxy') return send(res, 'skillsmp_proxy', 'text/plain', () => SKILLSMP_PROXY);
    if (url.pathname === '/clawhub/skills') return send(res, 'clawhub', json, () => JSON.stringify(clawhubPage(url.searchParams.get('cursor'))));
    if (url.pathname === '/openclaw/tree') return send(res, 'openclaw', json, () => JSON.stringify(OPENCLAW_TREE));
    if (url.pathname.startsWith('/openclaw/raw/')) {
      if (url.pathname.endsWith('pdf-extract/SKILL.md')) return send(res, 'openclaw', 'text/plain', () => OPENCLAW_SKILL);
      res.writeHead(404).end('404: Not Found');
      return;
    }
    if (url.pathname === '/clawskills/skills-data.js') return send(res, 'clawskills', 'application/javascript', () => CLAWSKILLS_JS);
    res.writeHead(404).end();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    requests,
    mode,
    env: (extra = {}) => ({
      CCCC_CAPABILITY_SKILLSMP_API_BASE: `${url}/skillsmp/api`,
      CCCC_CAPABILITY_SKILLSMP_PROXY_BASE: `${url}/skillsmp/proxy`,
      CCCC_CAPABILITY_CLAWHUB_API_BASE: `${url}/clawhub/skills`,
      CCCC_CAPABILITY_OPENCLAW_TREE_URL: `${url}/openclaw/tree`,
      CCCC_CAPABILITY_OPENCLAW_RAW_BASE: `${url}/openclaw/raw`,
      CCCC_CAPABILITY_CLAWSKILLS_DATA_URL: `${url}/clawskills/skills-data.js`,
      ...extra,
    }),
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
