import { useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { KeyRound } from "lucide-react";
import {
  signInOwnerWithPasskey,
  signInStaffWithPasskey,
  startOwnerPasskeySignIn,
  startStaffPasskeySignIn,
} from "#domain/auth/passkeys.contract.ts";
import { callApi } from "#app/api-client.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";

export type PasskeyRole = "staff" | "owner";

/** The translation subtree of a role's passkey texts. */
export const passkeyTexts = (role: PasskeyRole) => `${role}.passkeys`;

/** Whether this browser can use passkeys at all (checked after hydration only). */
export function useWebAuthnSupport(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => typeof window.PublicKeyCredential === "function",
    () => false,
  );
}

const noSubscription = () => () => {};

/**
 * "Sign in with a passkey": passkey-first, no email. Hidden where the browser has
 * no WebAuthn. The WebAuthn library loads on the first press only, so public pages do not ship
 * it. `onSignedIn` runs once the server opened the session.
 */
export function PasskeySignInButton({
  role,
  onSignedIn,
  className,
}: {
  role: PasskeyRole;
  onSignedIn: () => void | Promise<void>;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const supported = useWebAuthnSupport();
  const [isBusy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const texts = passkeyTexts(role);
  if (!supported) return null;

  const signIn = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const language = { language: i18n.language };
      const options =
        role === "staff"
          ? await callApi(startStaffPasskeySignIn, {}, language)
          : await callApi(startOwnerPasskeySignIn, {}, language);
      if (!options.ok) return setFailure(options.message ?? t(`${texts}.signInFailed`));
      const { startAuthentication } = await import("@simplewebauthn/browser");
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options.data as never });
      } catch {
        // Cancelled, timed out or no passkey for this site: the browser said so already.
        return setFailure(t(`${texts}.cancelled`));
      }
      const body = { response: response as never };
      const answer =
        role === "staff"
          ? await callApi(signInStaffWithPasskey, { body }, language)
          : await callApi(signInOwnerWithPasskey, { body }, language);
      if (!answer.ok) return setFailure(answer.message ?? t(`${texts}.signInFailed`));
      await onSignedIn();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={className} data-slot="passkey-sign-in">
      {failure && (
        <Alert className="mb-4" data-testid="passkey-sign-in-error">
          <AlertTitle>{t(`${texts}.signInFailed`)}</AlertTitle>
          {failure !== t(`${texts}.signInFailed`) && <p className="mt-1">{failure}</p>}
        </Alert>
      )}
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        disabled={isBusy}
        onClick={() => void signIn()}
        data-testid="passkey-sign-in"
      >
        <KeyRound aria-hidden className="size-5" />
        {isBusy ? t(`${texts}.signingIn`) : t(`${texts}.signIn`)}
      </Button>
    </div>
  );
}
