import type { ReactNode } from 'react';
import { AutomationView } from '../automation/AutomationView';
import type { MessageKey } from '../i18n/catalogs/en';
import { SpaceView } from '../space/SpaceView';
import { VoiceView } from '../voice/VoiceView';
import { AccessTokens } from './AccessTokens';
import { CapabilitiesPanel } from './CapabilitiesPanel';
import { CopyGroupsPanel } from './CopyGroupsPanel';
import { DeliveryTab, MessagingTab, TranscriptTab } from './GroupSettingsTabs';
import { GuidancePanel } from './GuidancePanel';
import { ProfilesPanel } from './ProfilesPanel';
import { RemoteAccessPanel } from './RemoteAccessPanel';
import type { GroupSettingsController } from './use-group-settings';

/** What a tab is handed: the group, and the shared group settings draft for the tabs that edit it. */
export interface SettingsTabContext {
  readonly groupId: string;
  readonly settings: GroupSettingsController;
}

export interface SettingsTab {
  /** Stable: e2e tests and deep links name tabs by it. */
  readonly id: string;
  /** A key of the i18n catalogs (add it to en.ts, zh-CN.ts and ja.ts). */
  readonly label: MessageKey;
  readonly render: (ctx: SettingsTabContext) => ReactNode;
}

/**
 * Every Settings tab, in display order. An area adds its tab here with ONE entry: an id, a
 * catalog label key, and a render function (a panel component in the area's own folder). A tab
 * whose panel is heavy should render a React.lazy component so the first load stays small.
 *
 * The IM area (branch `imcore`) registers here, after Automation, as:
 *   { id: 'im', label: 'settings.tab.im', render: ({ groupId }) => <ImSettingsPanel groupId={groupId} /> },
 * with 'settings.tab.im' added to the three catalogs.
 */
export const SETTINGS_TABS: readonly SettingsTab[] = [
  { id: 'messaging', label: 'settings.tab.messaging', render: ({ settings }) => <MessagingTab settings={settings} /> },
  { id: 'delivery', label: 'settings.tab.delivery', render: ({ settings }) => <DeliveryTab settings={settings} /> },
  { id: 'transcript', label: 'settings.tab.transcript', render: ({ settings }) => <TranscriptTab settings={settings} /> },
  { id: 'guidance', label: 'settings.tab.guidance', render: ({ groupId }) => <GuidancePanel groupId={groupId} /> },
  { id: 'automation', label: 'settings.tab.automation', render: ({ groupId }) => <AutomationView groupId={groupId} /> },
  // ← IM settings (branch imcore) go here.
  { id: 'capabilities', label: 'settings.tab.capabilities', render: ({ groupId }) => <CapabilitiesPanel groupId={groupId} /> },
  { id: 'profiles', label: 'settings.tab.profiles', render: () => <ProfilesPanel /> },
  { id: 'web-access', label: 'settings.tab.webAccess', render: ({ groupId }) => <AccessTokens groupId={groupId} /> },
  { id: 'remote-access', label: 'settings.tab.remoteAccess', render: () => <RemoteAccessPanel /> },
  { id: 'copy-groups', label: 'settings.tab.copyGroups', render: ({ groupId }) => <CopyGroupsPanel groupId={groupId} /> },
  { id: 'space', label: 'settings.tab.space', render: ({ groupId }) => <SpaceView groupId={groupId} /> },
  { id: 'voice', label: 'settings.tab.voice', render: ({ groupId }) => <VoiceView groupId={groupId} /> },
];
