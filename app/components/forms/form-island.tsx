import {
  Component,
  type ComponentType,
  memo,
  type ReactNode,
  Suspense,
  use,
  useEffect,
  useRef,
} from "react";
import { useTranslation } from "react-i18next";
import { isHydrated } from "../../hydration.ts";
import { Button } from "../ui/button.tsx";
import { whenEngaged } from "./when-engaged.ts";

/**
 * A guest form whose code (react-hook-form, the fields and the form hook: about 20 KB gzipped)
 * is not part of the page's first load. The server renders the form in full. In the browser
 * its HTML stays as rendered (fields can be filled in; the submit button waits for the bot
 * check in any case) until the guest engages with the form or the page is idle; then the code
 * loads and React hydrates the form in place, keeping what was typed. After a client-side
 * navigation there is no server HTML, so the code loads at once behind `placeholderClassName`.
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
        // React's `use` reads a settled thenable synchronously (the server never suspends).
        Object.assign(gate, { status: "fulfilled", value: component });
        resolveGate(component);
      },
      (error: unknown) => {
        Object.assign(gate, { status: "rejected", reason: error });
        rejectGate(error);
      },
    );
  };
  // Every server answer renders the form: load it with the server build.
  if (typeof document === "undefined") start();

  function Loaded(props: Props) {
    const Form = use(gate);
    // eslint-disable-next-line react-hooks/static-components -- one module's export: the same component on every render
    return <Form {...props} />;
  }

  const Island = memo(function FormIsland(props: Props) {
    const host = useRef<HTMLDivElement>(null);
    if (isHydrated()) start();
    useEffect(() => {
      const element = host.current;
      if (!element || started) return;
      return whenEngaged(element, start);
    }, []);
    return (
      <div ref={host}>
        <LoadFailure>
          <Suspense fallback={<div aria-busy="true" className={placeholderClassName} />}>
            <Loaded {...props} />
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
  return Object.assign(Island, { ready });
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
