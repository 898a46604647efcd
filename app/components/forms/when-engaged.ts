/** What started deferred form code: the guest touching the form, or the page falling idle. */
export type EngagedBy = "interaction" | "idle";

const INTERACTIONS = ["focusin", "pointerdown", "keydown", "touchstart", "input"] as const;

/**
 * Runs `run` once, at the guest's first interaction with `target` (focus, pointer, key, touch)
 * or when the page has loaded and the main thread is idle, whichever comes first. Form pages use
 * it for code the first paint does not need (the bot-check widget, the validation schema), so
 * it loads neither with the page nor later than the guest needs it. Returns a cancel function.
 */
export function whenEngaged(target: EventTarget, run: (by: EngagedBy) => void): () => void {
  let done = false;
  let idleHandle: number | undefined;
  const fire = (by: EngagedBy) => {
    if (done) return;
    cancel();
    done = true;
    run(by);
  };
  const onInteraction = () => fire("interaction");
  const onIdle = () => fire("idle");
  const scheduleIdle = () => {
    window.removeEventListener("load", scheduleIdle);
    idleHandle =
      typeof window.requestIdleCallback === "function"
        ? window.requestIdleCallback(onIdle, { timeout: 2000 })
        : window.setTimeout(onIdle, 200);
  };
  function cancel() {
    done = true;
    for (const type of INTERACTIONS) target.removeEventListener(type, onInteraction, true);
    window.removeEventListener("load", scheduleIdle);
    if (idleHandle === undefined) return;
    if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idleHandle);
    else window.clearTimeout(idleHandle);
  }

  for (const type of INTERACTIONS)
    target.addEventListener(type, onInteraction, { capture: true, passive: true });
  if (document.readyState === "complete") scheduleIdle();
  else window.addEventListener("load", scheduleIdle);
  return cancel;
}
