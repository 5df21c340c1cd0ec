import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { ThemeSwitch } from '../theme/ThemeSwitch';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

/** This browser's own preferences (theme, language), in a dialog off the top bar. */
export function Preferences() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <span aria-hidden="true">⚙</span> {t('prefs.open')}
      </Button>
      <Dialog open={open} title={t('prefs.title')} closeLabel={t('prefs.close')} onClose={() => setOpen(false)}>
        <label className="field">
          <span>{t('prefs.theme')}</span>
          <ThemeSwitch />
        </label>
        <label className="field">
          <span>{t('prefs.language')}</span>
          <LanguageSwitch />
        </label>
      </Dialog>
    </>
  );
}
