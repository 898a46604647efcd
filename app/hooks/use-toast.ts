import { useSyncExternalStore } from "react";

/** At most one toast at a time; a new one replaces the previous. */
export const TOAST_LIMIT = 1;
/** A dismissed toast is removed after 1,000,000 ms. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** A toast shows for 5000 ms. */
export const TOAST_DURATION_MS = 5000;

export interface ToastData {
  id: string;
  title?: string;
  description?: string;
  variant?: "default" | "destructive";
  action?: { label: string; onClick: () => void };
  isOpen: boolean;
}

type Listener = () => void;
let toasts: ToastData[] = [];
const listeners = new Set<Listener>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastData[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Removes a toast from the list now. */
export function removeToast(id: string) {
  clearTimeout(removals.get(id));
  removals.delete(id);
  emit(toasts.filter((toast) => toast.id !== id));
}

/** Marks a toast closed (it animates out); it is removed after TOAST_REMOVE_DELAY_MS. */
export function dismissToast(id: string) {
  if (!removals.has(id))
    removals.set(
      id,
      setTimeout(() => removeToast(id), TOAST_REMOVE_DELAY_MS),
    );
  emit(toasts.map((toast) => (toast.id === id ? { ...toast, isOpen: false } : toast)));
}

/** Shows a toast; returns handles to update or dismiss it. */
export function toast(data: Omit<ToastData, "id" | "isOpen">) {
  const id = String(++counter);
  emit([{ ...data, id, isOpen: true }, ...toasts].slice(0, TOAST_LIMIT));
  return {
    id,
    update: (patch: Omit<Partial<ToastData>, "id">) =>
      emit(toasts.map((item) => (item.id === id ? { ...item, ...patch } : item))),
    dismiss: () => dismissToast(id),
  };
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const NO_TOASTS: ToastData[] = [];

/** The toasts now (the Toaster reads them through useToasts). */
export function getToasts(): ToastData[] {
  return toasts;
}

/** The current toasts, for the one Toaster of the page; none on the server. */
export function useToasts(): ToastData[] {
  return useSyncExternalStore(subscribe, getToasts, () => NO_TOASTS);
}
