import {
  Component,
  type ComponentType,
  memo,
  type ReactNode,
  Suspense,
  use,
  useCallback,
  useEffect,
  useRef,
} from "react";
import { useTranslation } from "react-i18next";
import { data, useActionData } from "react-router";
import { EARLY_SUBMIT_KEY, SUBMITS_HELD_KEY } from "#app/first-screen.ts";
import { isHydrated } from "#app/hydration.ts";
import { Button } from "../ui/button.tsx";
import { whenEngaged } from "./when-engaged.ts";

/**
 * A guest form whose code (react-hook-form, the fields and the form hook: about 20 KB gzipped)
 * is not part of the page's first load. The server renders the form in full. In the browser
 * its HTML stays as rendered (fields can be filled in) until the guest engages with the form or
 * the page is idle; then the code loads and React hydrates the form in place, keeping what was
 * typed. A submit before that (Submit pressed, or Enter in a field) is held and made again once
 * the form has hydrated (see `holdEarlySubmits`). After a client-side navigation there is no
 * server HTML, so the code loads at once behind `placeholderClassName`. The route exports
 * `action` (below) for a browser without JavaScript.
 *
 * The island's props must keep their identity between renders (loader data, primitives): an
 * update reaching a boundary that is still waiting would make React drop the server's HTML.
 */
export function formIsland<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  placeholderClassName: string,
) {
  let resolveGate: (component: ComponentType<Props>) => void = () => {};
  let rejectGate: (error: unknown) => void = () => {};
  const gate = new Promise<ComponentType<Props>>((resolve, reject) => {
    resolveGate = resolve;
    rejectGate = reject;
  });
  // A failed load surfaces through `use` (see LoadFailure), not as an unhandled rejection.
  gate.catch(() => {});
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    load().then(
      (component) => {
        markSettled(gate, { status: "fulfilled", value: component });
        resolveGate(component);
      },
      (error: unknown) => {
        markSettled(gate, { status: "rejected", reason: error });
        rejectGate(error);
      },
    );
  };
  // Every server answer renders the form: load it with the server build.
  if (typeof document === "undefined") start();
  // The route module runs before the page hydrates: from then on no submit goes out natively.
  else holdEarlySubmits();

  function Loaded({ props, onLive }: { props: Props; onLive(): void }) {
    const Form = use(gate);
    // Runs once the form has hydrated (or rendered): its own handlers are attached by then.
    useEffect(onLive, [onLive]);
    // eslint-disable-next-line react-hooks/static-components -- one module's export: the same component on every render
    return <Form {...props} />;
  }

  const Island = memo(function FormIsland(props: Props) {
    const host = useRef<HTMLDivElement>(null);
    if (isHydrated()) start();
    useEffect(() => {
      const element = host.current;
      if (!element || started) return;
      // A submit held before the page hydrated: the guest is waiting for the form.
      if (heldSubmits.has(element)) return start();
      starters.set(element, start);
      return whenEngaged(element, start);
    }, []);
    const onLive = useCallback(() => {
      if (host.current) replayHeldSubmit(host.current);
    }, []);
    const isNativePost = useActionData<typeof action>()?.isNativePost === true;
    return (
      <div ref={host} data-form-island="">
        {isNativePost && <NeedsScript />}
        <LoadFailure>
          <Suspense fallback={<div aria-busy="true" className={placeholderClassName} />}>
            <Loaded props={props} onLive={onLive} />
          </Suspense>
        </LoadFailure>
      </div>
    );
  });
  /**
   * Settles once the form's code has loaded. A loader awaits it so that the server renders the
   * form inline even in the first answer after a start.
   */
  const ready = (): Promise<unknown> => {
    start();
    return gate;
  };
  /**
   * The route's data once the form's code has loaded as well: a client-side navigation then
   * shows the page whole (if the code fails to load, the page still comes and says so where
   * the form would be). For the route's `clientLoader`.
   */
  const withCode = async <Data,>(data: Promise<Data>): Promise<Data> => {
    const [value] = await Promise.all([data, ready().catch(() => {})]);
    return value;
  };
  return Object.assign(Island, { ready, withCode });
}

/**
 * React's `use` reads a thenable that carries its outcome like this at once, without
 * suspending (so the server, which loaded the form first, never suspends).
 */
function markSettled(
  thenable: PromiseLike<unknown>,
  outcome: { status: "fulfilled"; value: unknown } | { status: "rejected"; reason: unknown },
): void {
  Object.assign(thenable as object, outcome);
}

/**
 * The action of every form page. The forms send JSON to the API; a page receives a form only
 * when a browser without JavaScript sent it natively (any other submit is held, see
 * `holdEarlySubmits`). The bot check cannot run there, so nothing is taken: the page comes
 * again and says what the form needs, instead of an error page.
 */
export function action() {
  return data({ isNativePost: true }, { status: 400 });
}

function NeedsScript() {
  const { t } = useTranslation();
  return (
    <p
      role="alert"
      className="mt-10 rounded-sm border border-l-4 border-orange-300 border-l-orange-500 bg-orange-50 p-5 text-orange-950"
    >
      {t("forms.needsScript")}
    </p>
  );
}

/** Island hosts whose form has hydrated: React handles their submits. */
const liveHosts = new WeakSet<Element>();
/** Per island host, the submit held before its form hydrated, with the button that made it. */
const heldSubmits = new WeakMap<Element, HTMLElement | null>();
/** Per island host (once the page has hydrated), what loads its form's code. */
const starters = new WeakMap<Element, () => void>();
let isHoldingSubmits = false;

/**
 * Until an island's form has hydrated, its server-rendered form has no handler, and the
 * browser would send it natively: a page load that drops what the guest typed. One listener on
 * the window (ahead of React's, which ignores events in parts of the page not yet hydrated)
 * stops such a submit, loads the form's code and keeps the submit for `replayHeldSubmit`.
 */
function holdEarlySubmits() {
  if (isHoldingSubmits) return;
  isHoldingSubmits = true;
  // Until now the root's inline script held them (app/first-screen.ts): it stops, and the one
  // it kept, if any, is held here, so the island starts its form as it hydrates.
  const store = window as unknown as Record<string, unknown>;
  store[SUBMITS_HELD_KEY] = true;
  const early = store[EARLY_SUBMIT_KEY] as
    { form: HTMLFormElement; submitter: HTMLElement | null } | undefined;
  delete store[EARLY_SUBMIT_KEY];
  const earlyHost = early?.form.closest("[data-form-island]");
  if (early && earlyHost) heldSubmits.set(earlyHost, early.submitter);
  window.addEventListener(
    "submit",
    (event) => {
      const host =
        event.target instanceof Element ? event.target.closest("[data-form-island]") : null;
      if (!host || liveHosts.has(host)) return;
      // Held whole: not sent, and not handled by a form that is halfway through hydrating.
      event.preventDefault();
      event.stopPropagation();
      heldSubmits.set(host, event instanceof SubmitEvent ? event.submitter : null);
      starters.get(host)?.();
    },
    true,
  );
}

/**
 * Marks the island's form as live and makes the submit held for it again, now through the
 * form's own handler (validation, the bot check, sending), with the same button.
 */
function replayHeldSubmit(host: Element) {
  liveHosts.add(host);
  if (!heldSubmits.has(host)) return;
  const submitter = heldSubmits.get(host);
  heldSubmits.delete(host);
  const form = host.querySelector("form");
  if (!form) return;
  form.requestSubmit(
    submitter instanceof HTMLButtonElement && submitter.form === form ? submitter : null,
  );
}

/**
 * The form's code did not arrive (the connection dropped, or a new release replaced the
 * files this page names): say so where the form was, and offer to reload the page.
 */
class LoadFailure extends Component<{ children: ReactNode }, { hasFailed: boolean }> {
  override state = { hasFailed: false };
  static getDerivedStateFromError() {
    return { hasFailed: true };
  }
  override render() {
    return this.state.hasFailed ? <FormUnavailable /> : this.props.children;
  }
}

function FormUnavailable() {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className="mt-10 flex flex-wrap items-center gap-4 rounded-sm border border-l-4 border-orange-300 border-l-orange-500 bg-orange-50 p-5 text-orange-950"
    >
      <p>{t("errors.generic")}</p>
      <Button type="button" variant="outline" onClick={() => window.location.reload()}>
        {t("botCheck.reload")}
      </Button>
    </div>
  );
}
