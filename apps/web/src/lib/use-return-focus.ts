import { useEffect, useState } from "react";

/**
 * Gives focus back to whatever had it when the calling dialog mounted, once the dialog
 * unmounts. The app's dialogs mount already open and unmount to close, and Mantine's own
 * focus return only acts when `opened` turns from true to false, so without this, closing
 * a dialog (Escape, Close, Cancel) dropped keyboard users at the top of the page.
 */
export function useReturnFocus(): void {
  // Read during the first render, before the dialog's focus trap moves focus inside it.
  const [opener] = useState(() => (typeof document === "undefined" ? null : openerOf(document.activeElement)));
  useEffect(
    () => () => {
      if (!(opener instanceof HTMLElement)) return;
      // After the dialog has left the page, so its own focus handling has run first.
      window.setTimeout(() => {
        const active = document.activeElement;
        const focusLost = active === null || active === document.body;
        if (focusLost && opener.isConnected) opener.focus({ preventScroll: true });
      }, 0);
    },
    [opener],
  );
}

/**
 * A dialog opened from a menu item: the item leaves the page with the menu, so focus goes
 * back to the button that opened the menu (the element whose aria-controls names it).
 */
function openerOf(active: Element | null): Element | null {
  const menu = active?.closest('[role="menu"]');
  if (!menu?.id) return active;
  const target = [...document.querySelectorAll("[aria-controls]")].find((el) => el.getAttribute("aria-controls") === menu.id);
  return target ?? active;
}
