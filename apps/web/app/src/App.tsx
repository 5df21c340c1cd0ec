import { useCallback, useEffect, useState } from 'react';
import { ActorsPanel } from './actors/ActorsPanel';
import { api } from './api/client';
import { onUnauthorized } from './api/http';
import { routePath, webRoutes } from '../../src/routes/route-map';
import { ChatView } from './chat/ChatView';
import { GroupLiveProvider } from './group/GroupLive';
import { GroupSidebar } from './groups/GroupSidebar';
import { InboxView } from './inbox/InboxView';
import { MemoryView } from './memory/MemoryView';
import { VoiceView } from './voice/VoiceView';
import { SpaceView } from './space/SpaceView';
import { SettingsView } from './settings/SettingsView';
import { AutomationView } from './automation/AutomationView';
import { PresentationBoard } from './presentation/PresentationBoard';
import { useBranding } from './branding/use-branding';
import { TerminalView } from './terminal/TerminalView';
import { Preferences } from './prefs/Preferences';
import { writeDeepLink, type DeepLink } from './url-state';
import { Button } from './ui/Button';
import { useT } from './i18n/I18nProvider';

/** What the main pane shows for the selected group. */
export type MainView = { kind: 'chat' } | { kind: 'inbox' } | { kind: 'board' } | { kind: 'automation' } | { kind: 'memory' } | { kind: 'voice' } | { kind: 'space' } | { kind: 'settings' } | { kind: 'terminal'; actorId: string };

/**
 * Layout: group sidebar | main pane (chat, inbox, settings or one actor's terminal) | actors
 * panel. On a phone-sized screen the three collapse into one column switched from the top bar.
 */
export function App({ initial }: { initial: DeepLink }) {
  const [groupId, setGroupId] = useState<string | null>(initial.groupId);
  const [view, setView] = useState<MainView>(initial.actorId ? { kind: 'terminal', actorId: initial.actorId } : { kind: 'chat' });
  const [mobilePane, setMobilePane] = useState<'groups' | 'main' | 'actors'>(initial.groupId ? 'main' : 'groups');
  const [unauthorized, setUnauthorized] = useState(false);
  // Bumped by the onboarding's "Custom command…": the actors panel opens its add form.
  const [addActorRequest, setAddActorRequest] = useState(0);

  const t = useT();
  const [daemon, setDaemon] = useState<{ version?: string } | 'down' | null>(null);
  const branding = useBranding();

  // A 401 can race a sign-in that is setting the cookie (Settings signs this browser in with the
  // first token it creates): confirm with a plain ping (twice, briefly apart) before leaving.
  useEffect(
    () =>
      onUnauthorized(() => {
        const still = () => fetch(routePath(webRoutes.ping.path, []), { credentials: 'same-origin' }).then((r) => r.status === 401, () => false);
        void still().then(async (denied) => {
          if (denied && (await new Promise((r) => setTimeout(r, 300)).then(still))) setUnauthorized(true);
        });
      }),
    [],
  );
  useEffect(() => {
    // The first call tells whether this server wants a token and whether the daemon answers.
    api.ping().then(setDaemon, () => setDaemon('down'));
  }, []);
  useEffect(() => {
    writeDeepLink(window.history, { groupId, actorId: view.kind === 'terminal' ? view.actorId : null });
  }, [groupId, view]);

  const selectGroup = useCallback((gid: string | null) => {
    setGroupId(gid);
    setView({ kind: 'chat' });
    setMobilePane('main');
  }, []);
  const openTerminal = useCallback((actorId: string) => {
    setView({ kind: 'terminal', actorId });
    setMobilePane('main');
  }, []);
  const addCustomActor = useCallback(() => {
    setAddActorRequest((n) => n + 1);
    setMobilePane('actors');
  }, []);

  if (unauthorized) return <SignIn />;

  const views: ReadonlyArray<{ kind: Exclude<MainView['kind'], 'terminal'>; label: string }> = [
    { kind: 'chat', label: t('app.view.chat') },
    { kind: 'inbox', label: t('app.view.inbox') },
    { kind: 'board', label: t('app.view.board') },
    { kind: 'automation', label: t('app.view.automation') },
    { kind: 'memory', label: t('app.view.memory') },
    { kind: 'voice', label: t('app.view.voice') },
    { kind: 'space', label: t('app.view.space') },
    { kind: 'settings', label: t('app.view.settings') },
  ];

  return (
    <div className="app" data-pane={mobilePane} data-has-group={groupId ? 'true' : undefined}>
      <header className="topbar">
        <span className="brand">
          {branding.logoUrl && <img className="brand-logo" src={branding.logoUrl} alt="" />}
          {branding.productName}
        </span>
        <span className="daemon-status" data-state={daemon === 'down' ? 'down' : daemon ? 'up' : 'pending'}>
          {daemon === 'down' ? t('app.daemonDown') : daemon ? t('app.daemonUp', { version: daemon.version ?? '' }) : '…'}
        </span>
        {/* Phone only: the group list and the team are panes of their own; the conversation is
            reached from the Views row, so no second "Chat" button. */}
        <nav className="mobile-tabs" aria-label={t('app.panes')}>
          <button aria-pressed={mobilePane === 'groups'} onClick={() => setMobilePane('groups')}>{t('app.groups')}</button>
          {groupId && <button aria-pressed={mobilePane === 'actors'} onClick={() => setMobilePane('actors')}>{t('app.actors')}</button>}
        </nav>
        <div className="prefs">
          <Preferences />
        </div>
        {groupId && (
          <nav className="view-tabs" aria-label={t('app.views')}>
            {views.map((v) => (
              <button
                key={v.kind}
                aria-pressed={view.kind === v.kind}
                onClick={() => {
                  setView({ kind: v.kind });
                  setMobilePane('main');
                }}
              >
                {v.label}
              </button>
            ))}
          </nav>
        )}
      </header>
      <aside className="pane pane-groups">
        <GroupSidebar selected={groupId} onSelect={selectGroup} />
      </aside>
      {!groupId ? (
        <>
          <main className="pane pane-main">
            <p className="empty">{t('app.pickGroup')}</p>
          </main>
          <aside className="pane pane-actors" />
        </>
      ) : (
        <GroupLiveProvider key={groupId} groupId={groupId}>
          <main className="pane pane-main">
            {view.kind === 'chat' ? (
              <ChatView groupId={groupId} onOpenTerminal={openTerminal} onAddCustomActor={addCustomActor} />
            ) : view.kind === 'inbox' ? (
              <InboxView groupId={groupId} />
            ) : view.kind === 'board' ? (
              <PresentationBoard groupId={groupId} />
            ) : view.kind === 'automation' ? (
              <AutomationView groupId={groupId} />
            ) : view.kind === 'memory' ? (
              <MemoryView groupId={groupId} />
            ) : view.kind === 'voice' ? (
              <VoiceView groupId={groupId} />
            ) : view.kind === 'space' ? (
              <SpaceView groupId={groupId} />
            ) : view.kind === 'settings' ? (
              <SettingsView groupId={groupId} />
            ) : (
              <TerminalView key={view.actorId} groupId={groupId} actorId={view.actorId} onClose={() => setView({ kind: 'chat' })} />
            )}
          </main>
          <aside className="pane pane-actors">
            <ActorsPanel onOpenTerminal={openTerminal} activeTerminal={view.kind === 'terminal' ? view.actorId : null} addRequest={addActorRequest} />
          </aside>
        </GroupLiveProvider>
      )}
    </div>
  );
}

/** Shown after a 401: this server is protected by access tokens. */
function SignIn() {
  const t = useT();
  const [token, setToken] = useState('');
  return (
    <form
      className="signin"
      onSubmit={(e) => {
        e.preventDefault();
        // The server moves a valid ?token= into its HttpOnly cookie and the app drops it from the URL.
        const url = new URL(window.location.href);
        url.searchParams.set('token', token.trim());
        window.location.assign(url.toString());
      }}
    >
      <h1>{t('signin.title')}</h1>
      <p>{t('signin.body', { command: 'cccc web token create' })}</p>
      <input aria-label={t('signin.token')} type="password" value={token} onChange={(e) => setToken(e.target.value)} autoFocus />
      <Button type="submit" variant="primary" disabled={!token.trim()}>
        {t('signin.submit')}
      </Button>
    </form>
  );
}
