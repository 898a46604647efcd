/**
 * Loads the ALTCHA web component (with its Web Workers bundled: the proof of work runs off the
 * main thread) and mounts one widget. Imported lazily by BotCheck, so only form pages load it,
 * and only once the guest engages with the form or the page is idle.
 */
import "altcha";

interface AltchaOptions {
  challengeUrl: string;
  language: string;
  t(key: string): string;
  onToken(token: string | null): void;
  /** Start solving at once (the guest is already in the form) instead of at the next focus. */
  verifyNow: boolean;
}

interface AltchaElement extends HTMLElement {
  getState?(): string;
  reset?(): void;
  verify?(): Promise<unknown>;
}

/** Automatic attempts after a failed one, 1 s, 2 s and 4 s after it. */
const ALTCHA_RETRIES = 3;
const ALTCHA_RETRY_MS = 1000;

type AltchaGlobal = { i18n: { set(language: string, strings: Record<string, string>): void } };

export function mountAltcha(
  host: HTMLElement,
  options: AltchaOptions,
): { reset(): void; verify(): void; remove(): void } {
  // Our own translations, so the widget speaks the page's language with the site's words.
  (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha.i18n.set(
    options.language,
    altchaStrings(options.t),
  );
  const widget = document.createElement("altcha-widget") as AltchaElement;
  widget.setAttribute("challenge", options.challengeUrl);
  widget.setAttribute("language", options.language);
  widget.setAttribute("auto", "onfocus");
  widget.setAttribute("name", "altcha");
  widget.setAttribute("workers", String(Math.min(4, navigator.hardwareConcurrency || 2)));
  widget.setAttribute("configuration", JSON.stringify({ hideFooter: false, minDuration: 300 }));

  // Only a widget at rest starts: one already solving (or solved) carries on. The widget's own
  // focus handler may have started it in the same frame, and a second start would abort the
  // first one's solving half-way.
  const verifyAtRest = () => {
    const state = widget.getState?.();
    if (state === "unverified" || state === "error") void widget.verify?.()?.catch(() => {});
  };
  // A failed attempt (the challenge did not arrive, a worker failed) is tried again by itself a
  // few times, later each time, before the error is left for the guest to retry.
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const onStateChange = (event: Event) => {
    const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
    if (detail.state === "verified" && detail.payload) {
      retries = 0;
      options.onToken(detail.payload);
    } else if (detail.state === "expired") {
      options.onToken(null);
      widget.reset?.();
    } else if (detail.state === "error") {
      options.onToken(null);
      if (retries < ALTCHA_RETRIES) {
        retryTimer = setTimeout(verifyAtRest, ALTCHA_RETRY_MS * 2 ** retries);
        retries += 1;
      }
    } else if (detail.state === "unverified") options.onToken(null);
  };
  widget.addEventListener("statechange", onStateChange);
  host.replaceChildren(widget);
  // The element renders on connection; verify once it has (the next frame).
  if (options.verifyNow) requestAnimationFrame(verifyAtRest);
  return {
    reset: () => widget.reset?.(),
    verify: verifyAtRest,
    remove: () => {
      clearTimeout(retryTimer);
      widget.removeEventListener("statechange", onStateChange);
      widget.remove();
    },
  };
}

function altchaStrings(t: (key: string) => string) {
  return {
    ariaLinkLabel: "ALTCHA",
    cancel: t("botCheck.cancel"),
    error: t("botCheck.error"),
    expired: t("botCheck.expired"),
    footer: t("botCheck.footer"),
    label: t("botCheck.label"),
    loading: t("botCheck.loading"),
    reload: t("botCheck.reload"),
    verify: t("botCheck.verify"),
    verificationRequired: t("botCheck.verificationRequired"),
    verified: t("botCheck.verified"),
    verifying: t("botCheck.verifying"),
    waitAlert: t("botCheck.waitAlert"),
  };
}
