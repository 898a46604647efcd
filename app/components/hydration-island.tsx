import { type ComponentType, memo, Suspense, use, useEffect, useRef, useState } from "react";
import { isHydrated, takeEarlyPress } from "#app/hydration.ts";
import { whenEngaged } from "./forms/when-engaged.ts";

/**
 * When a deferred part of the page hydrates: `visible` as it nears the screen (or is touched),
 * `idle` once the page has loaded and the main thread is free (or it is touched first).
 */
export type HydrateWhen = "visible" | "idle";

/** How far below the screen a `visible` island starts hydrating, so it is live when it arrives. */
const VISIBLE_MARGIN = "300px";

type Gate = Promise<void> & { open?(): void };
/** A settled gate: React's `use` reads a thenable marked so at once, without suspending. */
const OPEN: Gate = Object.assign(Promise.resolve(), { status: "fulfilled", value: undefined });

/**
 * A part of the page that hydrates on its own, after the rest: the server renders it whole, and
 * in the browser its HTML stays as sent (links work, text can be read and selected) while the
 * page around it hydrates; it follows `when`, or at once when the visitor focuses, clicks,
 * types or touches in it (React hydrates it then, before the event lands); a button pressed
 * before the page had hydrated is pressed again once this part has. Hydrating the page in
 * several short tasks instead of one keeps the main thread free for input, and a part far down
 * the page costs nothing until it is needed. After a client-side navigation there is no server
 * HTML: it renders at once.
 *
 * `part` is the component, or `{ load }` that loads it (`() => import(…)`): then its code is not
 * in the page's first load but fetched once the page is idle (or when the part is needed, if
 * sooner), and read without waiting once there, so a key pressed in the part is not lost.
 *
 * Its props must keep their identity between renders (loader data, strings, numbers): the
 * island is memoised, and an update reaching a part that is still waiting would make React
 * drop the server's HTML and render it afresh.
 */
export function hydrationIsland<Props extends object>(
  part: ComponentType<Props> | { load(): Promise<ComponentType<Props>> },
  when: HydrateWhen,
) {
  const code = "load" in part ? settledWhenLoaded(part.load) : null;
  // Every server answer renders the part: its code loads with the server.
  if (code && typeof document === "undefined") void code.load();

  function Gated({
    gate,
    props,
    earlyPress,
  }: {
    gate: Gate;
    props: Props;
    earlyPress: { current: HTMLElement | null };
  }) {
    use(gate);
    const Component = code
      ? use(code.load() as Promise<ComponentType<Props>>)
      : (part as ComponentType<Props>);
    // Runs once this part has hydrated: a button pressed before the page did is pressed again.
    useEffect(() => {
      const button = earlyPress.current;
      earlyPress.current = null;
      if (button?.isConnected) button.click();
    }, [earlyPress]);
    return <Component {...props} />;
  }

  return memo(function HydrationIsland(props: Props) {
    // Made once, when the island first renders: open on the server and after hydration.
    const [gate] = useState(() =>
      typeof document === "undefined" || isHydrated() ? OPEN : later(),
    );
    const host = useRef<HTMLDivElement>(null);
    const earlyPress = useRef<HTMLElement | null>(null);
    useEffect(() => {
      const element = host.current;
      if (!element || gate === OPEN) return;
      // Pressed before the page hydrated: this part hydrates now, and the press is made again.
      earlyPress.current = takeEarlyPress(element);
      if (earlyPress.current) return gate.open?.();
      const cancelFetch = code ? whenEngaged(element, () => void code.load()) : undefined;
      const cancelWait = waitFor(element, when, () => gate.open?.());
      return () => {
        cancelFetch?.();
        cancelWait();
      };
    }, [gate]);
    return (
      // No box of its own: the part lays out exactly as it would without the island.
      <div ref={host} className="contents" data-hydration-island={when}>
        <Suspense fallback={null}>
          <Gated gate={gate} props={props} earlyPress={earlyPress} />
        </Suspense>
      </div>
    );
  });
}

type Settling<T> = Promise<T> & { status?: "fulfilled" | "rejected"; value?: T };

/**
 * `load` made once: each call answers the same promise, which carries its value once loaded, so
 * React's `use` reads it at once, without suspending. A failed load is tried again next time.
 */
function settledWhenLoaded<T>(load: () => Promise<T>): { load(): Settling<T> } {
  let loading: Settling<T> | undefined;
  return {
    load() {
      if (loading) return loading;
      const started: Settling<T> = load().then(
        (value) => {
          started.status = "fulfilled";
          started.value = value;
          return value;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      // A failure surfaces where the part is rendered (React's `use`), not as unhandled.
      started.catch(() => {});
      loading = started;
      return started;
    },
  };
}

/** A gate that opens when told. */
function later(): Gate {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  return Object.assign(gate, { open });
}

/** Calls `run` once, at the first of: `when`, or an interaction inside `element`. */
function waitFor(element: HTMLElement, when: HydrateWhen, run: () => void): () => void {
  let observer: IntersectionObserver | undefined;
  const cancelEngaged = whenEngaged(element, fire, { idle: when === "idle" });
  function fire() {
    cancel();
    run();
  }
  function cancel() {
    cancelEngaged();
    observer?.disconnect();
  }
  if (when === "visible") {
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) fire();
      },
      { rootMargin: VISIBLE_MARGIN },
    );
    // The island has no box: its children are what nears the screen.
    for (const child of element.children) observer.observe(child);
  }
  return cancel;
}
