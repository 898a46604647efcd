/** What started deferred form code: the guest touching the form, or the page falling idle. */
export type EngagedBy = "interaction" | "idle";

// A click of its own too: a key or assistive technology presses a button without a pointer.
const INTERACTIONS = ["focusin", "pointerdown", "keydown", "touchstart", "input", "click"] as const;

/**
 * Runs `run` once, at the guest's first interaction with `target` (focus, pointer, key, touch)
 * or when the page has loaded and the main thread is idle, whichever comes first. Form pages use
 * it for code the first paint does not need (the form island, the bot-check widget, the
 * validation schema), so it loads neither with the page nor later than the guest needs it.
 * With `idle: false`, only an interaction runs it. Returns a cancel function.
 *
 * It listens on the window, ahead of React: React's own listener on the document stops these
 * events when they land in a part of the page that has not hydrated yet (a form island), so a
 * listener on `target` itself would never hear them there.
 */
export function whenEngaged(
  target: Node,
  run: (by: EngagedBy) => void,
  { idle = true }: { idle?: boolean } = {},
): () => void {
  let done = false;
  let idleHandle: number | undefined;
  const fire = (by: EngagedBy) => {
    if (done) return;
    cancel();
    done = true;
    run(by);
  };
  const onInteraction = (event: Event) => {
    if (event.target instanceof Node && target.contains(event.target)) fire("interaction");
  };
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
    for (const type of INTERACTIONS) window.removeEventListener(type, onInteraction, true);
    window.removeEventListener("load", scheduleIdle);
    if (idleHandle === undefined) return;
    if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idleHandle);
    else window.clearTimeout(idleHandle);
  }

  for (const type of INTERACTIONS)
    window.addEventListener(type, onInteraction, { capture: true, passive: true });
  if (!idle) return cancel;
  if (document.readyState === "complete") scheduleIdle();
  else window.addEventListener("load", scheduleIdle);
  return cancel;
}
