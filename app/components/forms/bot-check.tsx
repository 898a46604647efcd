import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import { type EngagedBy, whenEngaged } from "./when-engaged.ts";

export interface BotCheckHandle {
  /** Clears the token and shows a fresh widget (after the server refused the token). */
  reset(): void;
  /** Starts the check if it is waiting for the guest (they pressed Submit without a token). */
  start(): void;
}

interface BotCheckProps {
  config: BotCheckClientConfig;
  /** The token when verified; null when cleared (expired, error, reset). */
  onToken(token: string | null): void;
}

/**
 * The bot check of every form: ALTCHA, self-hosted proof of work solved in Web
 * Workers off the main thread, or Cloudflare Turnstile when configured. The widget's code
 * (ALTCHA's is about 35 KB gzipped) loads at the guest's first interaction with the form or when
 * the page is idle, never with the page; a submit without its token is refused in the browser
 * with 'Verification Required'. Expired: the token is cleared and the widget reset. Error or a
 * script that fails to load: the token is cleared and the error shown.
 */
export const BotCheck = forwardRef<BotCheckHandle, BotCheckProps>(function BotCheck(
  { config, onToken },
  ref,
) {
  const { t, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const resetRef = useRef<() => void>(() => {});
  const startRef = useRef<() => void>(() => {});
  const [failed, setFailed] = useState(false);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const language = i18n.language;

  useImperativeHandle(
    ref,
    () => ({ reset: () => resetRef.current(), start: () => startRef.current() }),
    [],
  );

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let cancelled = false;
    let cleanup = () => {};
    const setToken = (token: string | null) => onTokenRef.current(token);
    const fail = () => {
      setToken(null);
      setFailed(true);
    };

    let isMounting = false;
    // The guest is already in the form (or pressed Submit): solve at once, not at the next focus.
    let shouldVerify = false;
    let verify = () => {
      shouldVerify = true;
    };
    const mount = (by: EngagedBy) => {
      if (isMounting) return;
      isMounting = true;
      if (by === "interaction") shouldVerify = true;
      if (config.provider === "altcha") {
        import("./altcha-widget.ts")
          .then(({ mountAltcha }) => {
            if (cancelled) return;
            const widget = mountAltcha(element, {
              challengeUrl: config.challengeUrl,
              language,
              t,
              onToken: setToken,
              verifyNow: shouldVerify,
            });
            cleanup = widget.remove;
            verify = widget.verify;
            resetRef.current = () => {
              setToken(null);
              widget.reset();
            };
          })
          .catch(fail);
      } else {
        import("./turnstile-widget.ts")
          .then(({ mountTurnstile }) =>
            mountTurnstile(element, { siteKey: config.siteKey, language, onToken: setToken }),
          )
          .then((widget) => {
            if (cancelled) return widget.remove();
            cleanup = widget.remove;
            resetRef.current = () => {
              setToken(null);
              widget.reset();
            };
          })
          .catch(fail);
      }
    };
    const stopWaiting = whenEngaged(element.closest("form") ?? document, mount);
    // Turnstile solves by itself once mounted; ALTCHA may wait for a focus in the form.
    startRef.current = () => {
      verify();
      mount("interaction");
    };
    return () => {
      cancelled = true;
      stopWaiting();
      cleanup();
    };
  }, [config, language, t]);

  return (
    <div
      data-field="turnstileToken"
      id="field-turnstileToken"
      tabIndex={-1}
      className="flex flex-col gap-2"
    >
      {/* Reserves the widget's height so nothing moves when it appears. */}
      <div ref={host} className="min-h-[74px]" data-testid="bot-check" />
      {failed && (
        <p role="alert" className="text-sm font-medium text-orange-800">
          {t("botCheck.unavailable")}
        </p>
      )}
    </div>
  );
});
