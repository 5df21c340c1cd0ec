import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { Tabs, tabPanelProps } from '../ui/Tabs';
import { SETTINGS_TABS } from './registry';
import { useGroupSettings } from './use-group-settings';

const ID_PREFIX = 'settings';

/**
 * Settings as tabs, one per area (the registry in registry.tsx). The group settings draft lives
 * here, above the tabs, so Messaging / Delivery / Transcript edits survive switching between them.
 */
export function SettingsView({ groupId }: { groupId: string }) {
  const t = useT();
  const settings = useGroupSettings(groupId);
  const [selected, setSelected] = useState(SETTINGS_TABS[0]!.id);
  const tab = SETTINGS_TABS.find((x) => x.id === selected) ?? SETTINGS_TABS[0]!;
  return (
    <section className="settings" aria-label={t('settings.title')}>
      <Tabs label={t('settings.tabs')} idPrefix={ID_PREFIX} items={SETTINGS_TABS.map((x) => ({ id: x.id, label: t(x.label) }))} selected={tab.id} onSelect={setSelected} />
      <div className="settings-panel" {...tabPanelProps(ID_PREFIX, tab.id)}>
        {tab.render({ groupId, settings })}
      </div>
    </section>
  );
}
