import * as DialogPrimitive from "@radix-ui/react-dialog";
import { useRef } from "react";
import { X } from "lucide-react";
import { cn } from "./cn.ts";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogTitle = DialogPrimitive.Title;
export const DialogDescription = DialogPrimitive.Description;
export const DialogClose = DialogPrimitive.Close;

/**
 * A modal dialog: focus trapped inside, Esc closes, focus returns to the trigger (Radix).
 *
 * Radix hands Escape to the newest layer only, and a toast that appeared while the dialog was
 * open is newer: its Escape would close the toast and leave the dialog. An Escape from inside
 * the dialog that no layer claimed (the toast closes without claiming it) closes the dialog
 * too, so one Escape always closes it.
 */
export function DialogContent({
  className,
  children,
  closeLabel,
  onKeyDown,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & { closeLabel: string }) {
  const close = useRef<HTMLButtonElement>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="bg-ink/80 data-[state=open]:animate-in fixed inset-0 z-50" />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        className={cn(
          "bg-ivory fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-sm p-6 shadow-2xl focus:outline-none",
          className,
        )}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          if (event.key === "Escape" && !event.nativeEvent.defaultPrevented) {
            event.preventDefault();
            close.current?.click();
          }
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          ref={close}
          aria-label={closeLabel}
          className="bg-ivory/90 text-ink hover:bg-paper absolute top-3 right-3 rounded-sm p-2"
        >
          <X aria-hidden className="size-5" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
