import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BotCheckClientConfig } from "../../../domain/bot-check/config.ts";

export interface BotCheckHandle {
  /** Clears the token and shows a fresh widget (after the server refused the token). */
  reset(): void;
}

interface BotCheckProps {
  config: BotCheckClientConfig;
  /** The token when verified; null when cleared (expired, error, reset). */
  onToken(token: string | null): void;
}

/**
 * The bot check of every form (spec point 4): ALTCHA, self-hosted proof of work solved in Web
 * Workers off the main thread, or Cloudflare Turnstile when configured. Loaded only on the
 * form pages, after hydration. Expired: the token is cleared and the widget reset. Error or a
 * script that fails to load: the token is cleared and the error shown.
 */
export const BotCheck = forwardRef<BotCheckHandle, BotCheckProps>(function BotCheck(
  { config, onToken },
  ref,
) {
  const { t, i18n } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const resetRef = useRef<() => void>(() => {});
  const [failed, setFailed] = useState(false);
  const onTokenRef = useRef(onToken);
  onTokenRef.current = onToken;
  const language = i18n.language;

  useImperativeHandle(ref, () => ({ reset: () => resetRef.current() }), []);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let cancelled = false;
    let cleanup = () => {};
    const setToken = (token: string | null) => onTokenRef.current(token);

    if (config.provider === "altcha") {
      import("./altcha-widget.ts")
        .then(({ mountAltcha }) => {
          if (cancelled) return;
          cleanup = mountAltcha(element, {
            challengeUrl: config.challengeUrl,
            language,
            strings: altchaStrings(t),
            onToken: setToken,
          });
          resetRef.current = () => {
            setToken(null);
            (element.querySelector("altcha-widget") as { reset?: () => void } | null)?.reset?.();
          };
        })
        .catch(() => {
          setToken(null);
          setFailed(true);
        });
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
        .catch(() => {
          setToken(null);
          setFailed(true);
        });
    }
    return () => {
      cancelled = true;
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
