import { useRef } from "react";

/**
 * Where focus goes when a dialog closes. Radix gives it back to a `Dialog.Trigger`; the staff
 * dialogs open from a select, a row's button or another dialog instead, so they remember what
 * had focus when they opened and return there (if it is still on the page).
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current =
        document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const element = opener.current;
      if (!element?.isConnected) return;
      event.preventDefault();
      element.focus();
    },
  };
}
