import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissToast, getToasts, removeToast, toast, TOAST_REMOVE_DELAY_MS } from "./use-toast.ts";

describe("toasts", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    for (const item of getToasts()) removeToast(item.id);
    vi.useRealTimers();
  });

  it("shows one toast at a time: a new one replaces the previous", () => {
    toast({ title: "First" });
    const second = toast({ title: "Second", variant: "destructive" });
    expect(getToasts()).toEqual([
      expect.objectContaining({ id: second.id, title: "Second", isOpen: true }),
    ]);
  });

  it("updates a toast in place", () => {
    const shown = toast({ title: "Sending" });
    shown.update({ title: "Sent" });
    expect(getToasts()[0]).toMatchObject({ id: shown.id, title: "Sent" });
  });

  it("marks a dismissed toast closed, then removes it after 1,000,000 ms", () => {
    const shown = toast({ title: "Saved" });
    dismissToast(shown.id);
    expect(getToasts()[0]).toMatchObject({ id: shown.id, isOpen: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toEqual([]);
  });
});
