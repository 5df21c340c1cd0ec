import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_SKILLSMP_KEY, startFakeSkillSources, type FakeSkillSources } from './fake-remote.js';
import type { GroupView } from './group-view.js';
import { capabilityLimitsFromEnv } from './limits.js';
import { remoteSourcesFromLimits, searchRemote } from './remote.js';
import { clawhubSource, clawskillsSource, openclawSource, parseClawskillsData, parseSkillsmpProxyMarkdown, skillsmpSource } from './remote-skills.js';
import { CapabilityService } from './service.js';

const GROUP: GroupView = { group_id: 'g_remote', actors: [{ id: 'p1', role: 'peer' }] };
const SKILL_SOURCES = ['skillsmp_remote', 'clawhub_remote', 'openclaw_skills_remote', 'clawskills_remote'];

let fake: FakeSkillSources;
beforeAll(async () => {
  fake = await startFakeSkillSources();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  for (const k of Object.keys(fake.mode) as (keyof FakeSkillSources['mode'])[]) fake.mode[k] = 'ok';
});

const signal = () => AbortSignal.timeout(2000);
const paths = () => fake.requests.map((r) => r.path.split('?')[0]);

describe('remote skill source clients (against a local server speaking each service)', () => {
  it('SkillsMP with a key: the API answer becomes skillsmp_remote records; the key travels only as a bearer header', async () => {
    const env = fake.env({ CCCC_CAPABILITY_SKILLSMP_API_KEY: FAKE_SKILLSMP_KEY });
    const s = capabilityLimitsFromEnv(env).remoteSkills.skillsmp;
    const rows = await skillsmpSource({ ...s }).search('pdf', 5, signal());
    expect(rows).toEqual([
      expect.objectContaining({
        capability_id: expect.stringMatching(/^skill:skillsmp:acme-toolbox-skills-pdf-reader-skill-md-[0-9a-f]{8}$/),
        kind: 'skill',
        name: 'pdf-reader',
        description_short: 'Read and summarize PDF files (pdfkit).',
        source_id: 'skillsmp_remote',
        source_uri: 'https://skillsmp.com/skills/acme-toolbox-skills-pdf-reader-skill-md',
        capsule_text: expect.stringContaining('Skill: pdf-reader'),
      }),
    ]);
    const api = fake.requests.find((r) => r.path.startsWith('/skillsmp/api'))!;
    expect(api.path).toContain('q=pdf');
    expect(api.headers.authorization).toBe(`Bearer ${FAKE_SKILLSMP_KEY}`);
    expect(paths()).not.toContain('/skillsmp/proxy');
    expect(JSON.stringify(rows)).not.toContain(FAKE_SKILLSMP_KEY);
  });

  it('SkillsMP falls back to the proxy page without a key and after an API refusal; the refusal is named when the proxy has nothing', async () => {
    const noKey = await skillsmpSource(capabilityLimitsFromEnv(fake.env()).remoteSkills.skillsmp).search('pdf', 5, signal());
    expect(paths()).toEqual(['/skillsmp/proxy']);
    // http and https links to the same slug are one record; the name comes from the link text.
    expect(noKey).toEqual([expect.objectContaining({ name: 'pdf-tools', source_id: 'skillsmp_remote', description_short: 'Merge, split and inspect PDF documents.', source_uri: 'https://skillsmp.com/skills/octo-skills-skills-pdf-tools-skill-md' })]);

    const wrongKey = capabilityLimitsFromEnv(fake.env({ CCCC_CAPABILITY_SKILLSMP_API_KEY: 'sk-wrong' })).remoteSkills.skillsmp;
    expect((await skillsmpSource(wrongKey).search('pdf', 5, signal())).map((r) => r.name)).toEqual(['pdf-tools']);
    fake.mode.skillsmp_proxy = 'malformed';
    await expect(skillsmpSource(wrongKey).search('pdf', 5, signal())).rejects.toThrow('skillsmp_api_auth_failed;skillsmp_empty_or_unparsable');
  });

  it('SkillsMP proxy parsing strips generic skill-md names', () => {
    const md = '[SKILL.md from "a/b" Does things. 2026-01-02](https://skillsmp.com/skills/a-b-skills-collecting-osint-skill-md)';
    expect(parseSkillsmpProxyMarkdown(md, 5)[0]).toMatchObject({ name: 'collecting-osint', description_short: 'Does things.' });
  });

  it('ClawHub: pages by cursor, keeps only items with every query word, maps version and stars', async () => {
    const rows = await clawhubSource({ apiBase: `${fake.url}/clawhub/skills`, limit: 10 }).search('pdf', 10, signal());
    expect(rows.map((r) => r.name)).toEqual(['pdf-merge', 'pdf-annotate']);
    expect(rows[0]).toMatchObject({
      capability_id: expect.stringMatching(/^skill:clawhub:pdf-merge-[0-9a-f]{8}$/),
      source_id: 'clawhub_remote',
      source_uri: 'https://clawhub.ai/skills/pdf-merge',
      source_record_version: '1.2.0',
      description_short: 'Merge PDF files.',
      tags: expect.arrayContaining(['clawhub', 'starred']),
    });
    expect(fake.requests.map((r) => new URL(r.path, fake.url).searchParams.get('cursor'))).toEqual([null, 'c2']);
    // The limit stops paging.
    fake.requests.length = 0;
    expect(await clawhubSource({ apiBase: `${fake.url}/clawhub/skills`, limit: 1 }).search('pdf', 10, signal())).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('OpenClaw: the GitHub tree is read once (cached), matching SKILL.md paths become records with their frontmatter', async () => {
    const source = openclawSource({ treeUrl: `${fake.url}/openclaw/tree`, rawBase: `${fake.url}/openclaw/raw`, limit: 10 });
    const rows = await source.search('pdf', 10, signal());
    expect(rows).toEqual([
      expect.objectContaining({
        capability_id: expect.stringMatching(/^skill:openclaw:pdf-extract-[0-9a-f]{8}$/),
        name: 'pdf-extract',
        description_short: 'Extract text and tables from PDF files.',
        source_id: 'openclaw_skills_remote',
        source_uri: 'https://github.com/openclaw/skills/blob/main/skills/alice/pdf-extract/SKILL.md',
        source_record_id: 'openclaw/skills:skills/alice/pdf-extract/SKILL.md',
        license: 'MIT',
        capsule_text: expect.stringContaining('Run `pdftotext` first.'),
      }),
    ]);
    expect(fake.requests.find((r) => r.path === '/openclaw/tree')?.headers.accept).toBe('application/vnd.github+json');
    await source.search('calendar', 10, signal());
    expect(paths().filter((p) => p === '/openclaw/tree')).toHaveLength(1);
  });

  it('clawskills.co: the data script is parsed as literals (never run) and filtered by the query', async () => {
    const rows = await clawskillsSource({ dataUrl: `${fake.url}/clawskills/skills-data.js`, limit: 10 }).search('pdf', 10, signal());
    expect(rows).toEqual([
      expect.objectContaining({
        capability_id: expect.stringMatching(/^skill:clawskills:pdf-ocr-[0-9a-f]{8}$/),
        name: 'pdf-ocr',
        description_short: "OCR scanned PDF files, it's fast.",
        source_id: 'clawskills_remote',
        source_uri: 'https://clawskills.co/#skill-pdf-ocr',
        tags: expect.arrayContaining(['documents', 'author:carol']),
      }),
    ]);
    expect(() => parseClawskillsData('window.x = 1;', 'pdf', 5)).toThrow('clawskills_empty_or_unparsable');
    expect(parseClawskillsData('var SKILLS_DATA = [];', 'pdf', 5)).toEqual([]);
  });

  it('malformed bodies are reported as short reasons, never echoing the body', async () => {
    for (const k of ['clawhub', 'openclaw', 'clawskills'] as const) fake.mode[k] = 'malformed';
    const sources = remoteSourcesFromLimits(capabilityLimitsFromEnv(fake.env({ CCCC_CAPABILITY_SOURCE_MCP_REGISTRY_ENABLED: '0' })));
    const results = await searchRemote(sources, 'pdf', 10, 2000);
    expect(Object.fromEntries(results.map((r) => [r.source_id, r.error]))).toEqual({
      skillsmp_remote: undefined,
      clawhub_remote: 'invalid_json',
      openclaw_skills_remote: 'invalid_json',
      clawskills_remote: 'clawskills_empty_or_unparsable',
    });
    fake.mode.clawhub = 503;
    fake.mode.openclaw = 'ok';
    const again = await searchRemote(sources.filter((s) => s.source_id === 'clawhub_remote'), 'pdf', 10, 2000);
    expect(again[0]!.error).toBe('http_503');
  });

  it('the SkillsMP key never serializes or prints from the limits', () => {
    const limits = capabilityLimitsFromEnv({ CCCC_CAPABILITY_SKILLSMP_API_KEY: FAKE_SKILLSMP_KEY });
    expect(JSON.stringify(limits)).not.toContain(FAKE_SKILLSMP_KEY);
    expect(inspect(limits, { depth: 10 })).not.toContain(FAKE_SKILLSMP_KEY);
    expect(`${limits.remoteSkills.skillsmp.apiKey}`).not.toContain(FAKE_SKILLSMP_KEY);
    expect(limits.remoteSkills.skillsmp.apiKey?.reveal()).toBe(FAKE_SKILLSMP_KEY);
  });

  it('limits follow the remote fallback limit unless set per source, and the skill limit caps each', () => {
    const l = capabilityLimitsFromEnv({ CCCC_CAPABILITY_SEARCH_REMOTE_FALLBACK_LIMIT: '7', CCCC_CAPABILITY_SEARCH_REMOTE_CLAWHUB_LIMIT: '3', CCCC_CAPABILITY_SEARCH_REMOTE_SKILL_LIMIT: '5' });
    expect([l.remoteSkills.skillsmp.limit, l.remoteSkills.clawhub.limit, l.remoteSkills.skillLimit]).toEqual([7, 3, 5]);
    const byId = Object.fromEntries(remoteSourcesFromLimits(l).map((s) => [s.source_id, s.limit]));
    expect(byId).toMatchObject({ skillsmp_remote: 5, clawhub_remote: 3, openclaw_skills_remote: 5, clawskills_remote: 5 });
  });
});

describe('capability_search with the remote skill sources', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'cccc-caps-remote-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const service = (env: NodeJS.ProcessEnv) => {
    const full = { CCCC_CAPABILITY_SOURCE_MCP_REGISTRY_ENABLED: '0', CCCC_CAPABILITY_REMOTE_TIMEOUT_MS: '400', ...fake.env(env) };
    return new CapabilityService({ home, env: full, limits: capabilityLimitsFromEnv(full) });
  };

  it('success: hits of all four sources are cached as catalog records of their source (indexed by default: counted, not shown)', async () => {
    const svc = service({ CCCC_CAPABILITY_SKILLSMP_API_KEY: FAKE_SKILLSMP_KEY });
    const found = await svc.search({ group_id: GROUP.group_id, query: 'pdf' }, GROUP);
    expect(found.search_diagnostics).toMatchObject({ remote_augmented: true, remote_added: 5 });
    expect(found.search_diagnostics?.remote_error).toBeUndefined();
    expect(found.search_diagnostics?.policy_hidden_count).toBe(5);
    const cached = svc.overview({ query: 'pdf' }).items.filter((i) => SKILL_SOURCES.includes(i.source_id ?? ''));
    expect(cached.map((i) => i.source_id).sort()).toEqual(['clawhub_remote', 'clawhub_remote', 'clawskills_remote', 'openclaw_skills_remote', 'skillsmp_remote']);
    expect(found.sources.clawhub_remote).toMatchObject({ sync_state: 'on_demand', record_count: 2, source_level: 'indexed' });
    expect(readFileSync(join(home, 'state', 'capabilities', 'catalog.json'), 'utf8')).not.toContain(FAKE_SKILLSMP_KEY);
    expect(JSON.stringify(found)).not.toContain(FAKE_SKILLSMP_KEY);
  });

  it('an overlay promoting a source shows its hits; kind and source_id filters pick the sources asked', async () => {
    const svc = service({});
    await svc.allowlistUpdate({ patch: { defaults: { source_level: { clawskills_remote: 'mounted' } } }, by: 'user' });
    const found = await svc.search({ group_id: GROUP.group_id, query: 'pdf', source_id: 'clawskills_remote' }, GROUP);
    expect(found.items.map((i) => [i.source_id, i.name])).toEqual([['clawskills_remote', 'pdf-ocr']]);
    expect(paths()).toEqual(['/clawskills/skills-data.js']);
    fake.requests.length = 0;
    await svc.search({ group_id: GROUP.group_id, query: 'zzz', kind: 'mcp_toolpack' }, GROUP);
    expect(fake.requests).toEqual([]);
  });

  it('a gate off: that source is not asked at all', async () => {
    const svc = service({
      CCCC_CAPABILITY_SOURCE_SKILLSMP_REMOTE_ENABLED: '0',
      CCCC_CAPABILITY_SOURCE_CLAWHUB_REMOTE_ENABLED: 'false',
      CCCC_CAPABILITY_SOURCE_OPENCLAW_SKILLS_REMOTE_ENABLED: '0',
    });
    const found = await svc.search({ group_id: GROUP.group_id, query: 'pdf' }, GROUP);
    expect(paths()).toEqual(['/clawskills/skills-data.js']);
    expect(found.search_diagnostics).toMatchObject({ remote_added: 1 });
    fake.requests.length = 0;
    await service({ CCCC_CAPABILITY_SEARCH_REMOTE_FALLBACK: '0' }).search({ group_id: GROUP.group_id, query: 'pdf' }, GROUP);
    expect(fake.requests).toEqual([]);
  });

  it('a slow server is cut off by the time-out: the others and the local results still come back', async () => {
    fake.mode.clawhub = 'slow';
    fake.mode.skillsmp_proxy = 'slow';
    const svc = service({});
    const started = Date.now();
    const found = await svc.search({ group_id: GROUP.group_id, query: 'review' }, GROUP);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(found.items.map((i) => i.capability_id)).toEqual(['skill:cccc:code-review']);
    expect(found.search_diagnostics?.remote_error).toBe('skillsmp_remote:timeout; clawhub_remote:timeout');
    expect(found.search_diagnostics?.remote_augmented).toBe(false);
  });

  it('a malformed body fails only its source, reported in search_diagnostics', async () => {
    fake.mode.openclaw = 'malformed';
    const found = await service({}).search({ group_id: GROUP.group_id, query: 'pdf' }, GROUP);
    expect(found.search_diagnostics).toMatchObject({ remote_augmented: true, remote_error: 'openclaw_skills_remote:invalid_json' });
  });
});
