import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addActor } from './actor-store.js';
import { BUILTIN_PREAMBLE } from './builtin-prompts.js';
import { createGroup } from './groups.js';
import { clearActorNote, composeHelp, getActorNotes, getHelp, getPreamble, MAX_PREAMBLE_BYTES, resetPreamble, setActorNote, setPreamble, withActorNote } from './prompts.js';
import { makeTempHome, type TempHome } from './testing.js';

async function setup(home: TempHome) {
  const { group_id: gid } = await createGroup(home.layout);
  await addActor(home.layout, 'user', gid, { actor_id: 'lead' });
  await addActor(home.layout, 'user', gid, { actor_id: 'peer1' });
  await addActor(home.layout, 'user', gid, { actor_id: 'peer2' });
  return gid;
}

const HELP = `# Team guide

Be nice.

## Canonical Message Delivery

overlay tries to override this

## @role: foreman

Foreman only.

## @role: peer

Peers only.

## @actor: peer1

Note for peer1.

## @actor: peer2

Note for peer2.

## @voice_secretary

Voice only.

## @future_tag: x

Unknown tag block.

## Build

\`\`\`sh
## not a heading inside a fence
\`\`\`
`;

describe('preamble', () => {
  it('get / set / reset with permissions, size limit, confirmation and changed flags', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    expect(getPreamble(home.layout, gid)).toEqual({ group_id: gid, source: 'builtin', filename: 'CCCC_PREAMBLE.md', overridden: false, content: BUILTIN_PREAMBLE });
    const set = setPreamble(home.layout, 'lead', gid, 'Custom body');
    expect(set).toMatchObject({ source: 'home', overridden: true, content: 'Custom body', changed: true });
    expect(readFileSync(home.layout.preamblePath(gid), 'utf8')).toBe('Custom body');
    expect(setPreamble(home.layout, 'user', gid, 'Custom body').changed).toBe(false);
    expect(() => setPreamble(home.layout, 'peer1', gid, 'x')).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => setPreamble(home.layout, 'user', gid, '  ')).toThrowError(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => setPreamble(home.layout, 'user', gid, 'é'.repeat(MAX_PREAMBLE_BYTES / 2 + 1))).toThrowError(expect.objectContaining({ code: 'preamble_too_large' }));
    expect(() => resetPreamble(home.layout, 'user', gid, 'yes')).toThrowError(expect.objectContaining({ code: 'confirmation_required' }));
    expect(resetPreamble(home.layout, 'user', gid, 'preamble')).toMatchObject({ source: 'builtin', overridden: false, changed: true });
    expect(resetPreamble(home.layout, 'user', gid, 'preamble').changed).toBe(false);
  });
});

describe('help', () => {
  it('composes built-in + overlay, ignoring an overlay canonical section, filtered per viewer', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    expect(getHelp(home.layout, 'user', gid)).toMatchObject({ source: 'builtin', overridden: false, actor_id: null, filename: 'CCCC_HELP.md' });
    mkdirSync(dirname(home.layout.helpPath(gid)), { recursive: true });
    writeFileSync(home.layout.helpPath(gid), HELP);
    const all = getHelp(home.layout, 'user', gid).markdown;
    expect(all).toContain('## Canonical Message Delivery');
    expect(all).not.toContain('overlay tries to override this');
    expect(all).toContain('Be nice.');
    expect(all).toContain('## not a heading inside a fence');

    const peer1 = getHelp(home.layout, 'peer1', gid, 'peer1').markdown;
    expect(peer1).toContain('Peers only.');
    expect(peer1).toContain('Note for peer1.');
    expect(peer1).not.toContain('Note for peer2.');
    expect(peer1).not.toContain('Foreman only.');
    expect(peer1).not.toContain('Voice only.');
    expect(peer1).not.toContain('Unknown tag block.');
    const leadViewOfPeer2 = getHelp(home.layout, 'lead', gid, 'peer2');
    expect(leadViewOfPeer2).toMatchObject({ source: 'home', overridden: true, actor_id: 'peer2' });
    expect(leadViewOfPeer2.markdown).toContain('Note for peer2.');
    expect(getHelp(home.layout, 'user', gid, 'lead').markdown).toContain('Foreman only.');
    expect(() => getHelp(home.layout, 'peer1', gid, 'peer2')).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => getHelp(home.layout, 'peer1', gid)).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => getHelp(home.layout, 'user', gid, 'ghost')).toThrowError(expect.objectContaining({ code: 'actor_not_found' }));
  });

  it('composeHelp without overlay is the built-in', () => {
    expect(composeHelp(undefined)).toContain('## Canonical Message Delivery');
  });
});

describe('actor notes', () => {
  it('get / list / set / clear, preserving every other block byte for byte', async () => {
    using home = makeTempHome();
    const gid = await setup(home);
    expect(getActorNotes(home.layout, 'user', gid)).toMatchObject({ actor_notes: [], source: 'builtin' });
    mkdirSync(dirname(home.layout.helpPath(gid)), { recursive: true });
    writeFileSync(home.layout.helpPath(gid), HELP);
    expect(getActorNotes(home.layout, 'lead', gid)).toMatchObject({
      actor_notes: [
        { actor_id: 'peer1', content: 'Note for peer1.' },
        { actor_id: 'peer2', content: 'Note for peer2.' },
      ],
      source: 'home',
    });
    expect(getActorNotes(home.layout, 'peer1', gid, 'peer1')).toMatchObject({ target_actor_id: 'peer1', content: 'Note for peer1.' });
    expect(getActorNotes(home.layout, 'user', gid, 'lead')).toMatchObject({ content: '' });
    expect(() => getActorNotes(home.layout, 'peer1', gid, 'peer2')).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => getActorNotes(home.layout, 'peer1', gid)).toThrowError(expect.objectContaining({ code: 'permission_denied' }));

    const set = setActorNote(home.layout, 'lead', gid, 'peer1', 'Updated\nnote.');
    expect(set).toMatchObject({ target_actor_id: 'peer1', content: 'Updated\nnote.', changed: true });
    const after = readFileSync(home.layout.helpPath(gid), 'utf8');
    expect(after).toBe(HELP.replace('Note for peer1.', 'Updated\nnote.'));
    expect(setActorNote(home.layout, 'lead', gid, 'peer1', 'Updated\nnote.').changed).toBe(false);
    expect(setActorNote(home.layout, 'user', gid, 'lead', 'Lead note').changed).toBe(true);
    expect(readFileSync(home.layout.helpPath(gid), 'utf8').endsWith('## @actor: lead\n\nLead note\n')).toBe(true);

    expect(() => setActorNote(home.layout, 'peer1', gid, 'peer1', 'x')).toThrowError(expect.objectContaining({ code: 'permission_denied' }));
    expect(() => setActorNote(home.layout, 'user', gid, 'ghost', 'x')).toThrowError(expect.objectContaining({ code: 'actor_not_found' }));
    expect(clearActorNote(home.layout, 'user', gid, 'peer2')).toMatchObject({ content: '', changed: true });
    expect(clearActorNote(home.layout, 'user', gid, 'peer2').changed).toBe(false);
    const final = readFileSync(home.layout.helpPath(gid), 'utf8');
    expect(final).not.toContain('peer2');
    expect(final).toContain('## @voice_secretary\n\nVoice only.\n');
    expect(final).toContain('## @future_tag: x\n\nUnknown tag block.\n');
  });

  it('withActorNote on an empty document', () => {
    expect(withActorNote('', 'a', 'hi')).toBe('\n## @actor: a\n\nhi\n');
    expect(withActorNote(withActorNote('', 'a', 'hi'), 'a', undefined)).toBe('');
  });
});
