import { useState } from 'react';
import { ThemeSwitch } from '../theme/ThemeSwitch';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';

/** This browser's own preferences (theme, later language), in a dialog off the top bar. */
export function Preferences() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Preferences
      </Button>
      <Dialog open={open} title="Preferences" closeLabel="Close" onClose={() => setOpen(false)}>
        <label className="field">
          <span>Theme</span>
          <ThemeSwitch />
        </label>
      </Dialog>
    </>
  );
}
