import { Button } from "./button.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from "./dialog.tsx";
import { useReturnFocus } from "./use-return-focus.ts";

/**
 * Asks before an action that cannot be taken back (discard a mail, revert a field): a title,
 * what will happen, Cancel and the action in burgundy. While `busy` it stays open and the
 * buttons wait. `children` go between the text and the buttons (a value, a conflict notice).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  cancelLabel,
  confirmLabel,
  onConfirm,
  busy = false,
  hideConfirm = false,
  className = "max-w-md",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: React.ReactNode;
  description: React.ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  /** No action to offer any more (e.g. after a conflict): Cancel only. */
  hideConfirm?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
    >
      {open && (
        <DialogContent
          {...returnFocus}
          closeLabel={cancelLabel}
          className={className}
          data-slot="confirm-dialog"
        >
          <div className="grid gap-5">
            <div className="pr-10">
              <DialogTitle className="font-display text-heritage text-3xl font-semibold">
                {title}
              </DialogTitle>
              <DialogDescription className="text-ink mt-3">{description}</DialogDescription>
            </div>
            {children}
            <div className="flex flex-wrap justify-end gap-3">
              <DialogClose asChild>
                <Button type="button" variant="ghost" disabled={busy}>
                  {cancelLabel}
                </Button>
              </DialogClose>
              {!hideConfirm && (
                <Button type="button" variant="destructive" disabled={busy} onClick={onConfirm}>
                  {confirmLabel}
                </Button>
              )}
            </div>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
