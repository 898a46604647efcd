import * as ToastPrimitive from "@radix-ui/react-toast";
import { useTranslation } from "react-i18next";
import { X } from "lucide-react";
import { dismissToast, TOAST_DURATION_MS, useToasts } from "../hooks/use-toast.ts";
import { cn } from "./ui/cn.ts";

/**
 * The notification region: one toast at a time for 5000 ms, swipe right past
 * 50 px to dismiss, F8 focuses the region; top on small screens, bottom-right from `sm` up,
 * at most 420 px wide from `md` up.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={50}
      label={t("toast.region")}
    >
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.isOpen}
          onOpenChange={(open) => !open && dismissToast(item.id)}
          data-testid="toast"
          data-variant={item.variant ?? "default"}
          className={cn(
            "group shadow-card pointer-events-auto relative flex w-full items-start justify-between gap-4 overflow-hidden rounded-sm border p-5 pr-10",
            "data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none",
            "transition-[opacity,transform] duration-200 data-[state=closed]:opacity-0 data-[state=open]:opacity-100",
            item.variant === "destructive"
              ? "border-burgundy bg-burgundy text-ivory"
              : "border-gold/50 bg-paper text-ink",
          )}
        >
          <div className="grid gap-1">
            {item.title && (
              <ToastPrimitive.Title className="text-sm font-semibold">
                {item.title}
              </ToastPrimitive.Title>
            )}
            {item.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">
                {item.description}
              </ToastPrimitive.Description>
            )}
          </div>
          {item.action && (
            <ToastPrimitive.Action
              altText={item.action.label}
              onClick={item.action.onClick}
              className="shrink-0 rounded-sm border border-current px-3 py-1.5 text-sm font-medium"
            >
              {item.action.label}
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close
            aria-label={t("toast.close")}
            className="absolute top-2 right-2 rounded-sm p-1 opacity-70 hover:opacity-100 focus-visible:opacity-100"
          >
            <X aria-hidden className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse gap-2 p-4 sm:top-auto sm:right-0 sm:bottom-0 sm:flex-col md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
