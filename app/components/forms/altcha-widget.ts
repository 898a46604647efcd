/**
 * Loads the ALTCHA web component (with its Web Workers bundled: the proof of work runs off the
 * main thread) and mounts one widget. Imported lazily by BotCheck, so only form pages load it.
 */
import "altcha";

interface AltchaOptions {
  challengeUrl: string;
  language: string;
  strings: Record<string, string>;
  onToken(token: string | null): void;
}

interface AltchaElement extends HTMLElement {
  reset?(): void;
  configure?(options: Record<string, unknown>): void;
}

type AltchaGlobal = { i18n: { set(language: string, strings: Record<string, string>): void } };

export function mountAltcha(host: HTMLElement, options: AltchaOptions): () => void {
  // Our own translations, so the widget speaks the page's language with the site's words.
  (globalThis as unknown as { $altcha: AltchaGlobal }).$altcha.i18n.set(
    options.language,
    options.strings,
  );
  const widget = document.createElement("altcha-widget") as AltchaElement;
  widget.setAttribute("challenge", options.challengeUrl);
  widget.setAttribute("language", options.language);
  widget.setAttribute("auto", "onfocus");
  widget.setAttribute("name", "altcha");
  widget.setAttribute("workers", String(Math.min(4, navigator.hardwareConcurrency || 2)));
  widget.setAttribute("configuration", JSON.stringify({ hideFooter: false, minDuration: 300 }));

  const onStateChange = (event: Event) => {
    const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail ?? {};
    if (detail.state === "verified" && detail.payload) options.onToken(detail.payload);
    else if (detail.state === "expired") {
      options.onToken(null);
      widget.reset?.();
    } else if (detail.state === "error") options.onToken(null);
    else if (detail.state === "unverified") options.onToken(null);
  };
  widget.addEventListener("statechange", onStateChange);
  host.replaceChildren(widget);
  return () => {
    widget.removeEventListener("statechange", onStateChange);
    widget.remove();
  };
}
