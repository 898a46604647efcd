import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Check, Download, KeyRound } from "lucide-react";
import { confirmTotpEnrolment, type TotpEnrolmentSchema } from "#domain/staff/mfa/mfa.contract.ts";
import type { z } from "zod";
import { callApi } from "#app/api-client.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button, buttonVariants } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { CopyValue } from "../ui/copy-value.tsx";
import { CONTROL_CLASS, Field } from "../ui/field.tsx";

export type TotpEnrolment = z.infer<typeof TotpEnrolmentSchema>;

/**
 * One code to type (a TOTP code or a recovery code) and its button: the second step of
 * sign-in and the confirmation of a new authenticator app. `onCode` answers an error message
 * to show, or null when the code was taken.
 */
export function CodeForm({
  label,
  hint,
  submitLabel,
  busyLabel,
  kind,
  onCode,
  testId,
}: {
  label: string;
  hint?: string;
  submitLabel: string;
  busyLabel: string;
  kind: "totp" | "recovery";
  onCode: (code: string) => Promise<string | null>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      method="post"
      noValidate
      className="grid gap-4"
      data-testid={testId}
      onSubmit={(event) => {
        event.preventDefault();
        if (!code.trim()) {
          setError(t("staff.mfa.validation.codeRequired"));
          return;
        }
        setBusy(true);
        setError(null);
        void onCode(code.trim()).then((problem) => {
          setBusy(false);
          setError(problem);
          if (problem) setCode("");
        });
      }}
    >
      <Field label={label} hint={hint} error={error ?? undefined}>
        {(control) => (
          <input
            {...control}
            name="code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="one-time-code"
            inputMode={kind === "totp" ? "numeric" : "text"}
            spellCheck={false}
            autoCapitalize="none"
            maxLength={kind === "totp" ? 7 : 36}
            className={`${CONTROL_CLASS} font-mono text-lg tracking-widest`}
          />
        )}
      </Field>
      <Button type="submit" size="lg" disabled={busy}>
        <KeyRound aria-hidden className="size-5" />
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}

/**
 * Adding an authenticator app: the QR code (drawn by the server, shown as an image), the
 * secret to type by hand, and the first code, which confirms it and answers the recovery codes.
 */
export function TotpSetup({
  enrolment,
  onConfirmed,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (recoveryCodes: string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="grid gap-6" data-testid="totp-setup">
      <ol className="text-ink grid list-decimal gap-2 pl-5 text-sm">
        <li>{t("staff.mfa.enrol.stepScan")}</li>
        <li>{t("staff.mfa.enrol.stepCode")}</li>
      </ol>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt={t("staff.mfa.enrol.qrAlt")}
        width={200}
        height={200}
        className="border-ink/15 mx-auto rounded-sm border bg-white"
      />
      <CopyValue
        label={t("staff.mfa.enrol.secret")}
        value={enrolment.secret}
        copyLabel={t("staff.mfa.copy")}
        copiedLabel={t("staff.mfa.copied")}
        selectLabel={t("staff.mfa.selected")}
        testId="totp-secret"
      />
      <CodeForm
        kind="totp"
        label={t("staff.mfa.enrol.code")}
        hint={t("staff.mfa.enrol.codeHint")}
        submitLabel={t("staff.mfa.enrol.submit")}
        busyLabel={t("staff.mfa.checking")}
        testId="totp-confirm"
        onCode={async (code) => {
          const answer = await callApi(
            confirmTotpEnrolment,
            { body: { code } },
            { language: i18n.language },
          );
          if (answer.ok) {
            onConfirmed(answer.data.recoveryCodes);
            return null;
          }
          return answer.errors[0]?.message ?? answer.message ?? t("staff.mfa.codeWrong");
        }}
      />
    </div>
  );
}

/**
 * The 10 recovery codes, shown once: to copy or download, then "I have saved them".
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = `${codes.join("\n")}\n`;
  return (
    <div className="grid gap-5" data-testid="recovery-codes">
      <Alert variant="warning">
        <AlertTitle>{t("staff.mfa.recovery.title")}</AlertTitle>
        <p className="mt-1">{t("staff.mfa.recovery.intro")}</p>
      </Alert>
      <ol
        aria-label={t("staff.mfa.recovery.listLabel")}
        className="border-ink/15 bg-ivory grid grid-cols-2 gap-x-6 gap-y-2 rounded-sm border p-4 font-mono text-base"
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="castellum-recovery-codes.txt"
          className={buttonVariants({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden className="size-4" />
          {t("staff.mfa.recovery.download")}
        </a>
      </div>
      <CopyValue
        label={t("staff.mfa.recovery.copyAllLabel")}
        value={codes.join(" ")}
        copyLabel={t("staff.mfa.copy")}
        copiedLabel={t("staff.mfa.copied")}
        selectLabel={t("staff.mfa.selected")}
      />
      <Button type="button" size="lg" onClick={onDone} data-testid="recovery-saved">
        <Check aria-hidden className="size-5" />
        {t("staff.mfa.recovery.saved")}
      </Button>
    </div>
  );
}

/**
 * Asks for the password again before a factor is added, removed or its codes replaced.
 * `onPassword` answers an error to show under the field, or null when the action went ahead.
 */
export function PasswordAgainDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onPassword,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  onPassword: (password: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = (next: boolean) => {
    if (!next) {
      setPassword("");
      setError(null);
    }
    onOpenChange(next);
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={close}
      title={title}
      description={description}
      cancelLabel={t("staff.mfa.cancel")}
      confirmLabel={confirmLabel}
      busy={busy}
      onConfirm={() => {
        if (!password) {
          setError(t("staff.validation.passwordRequired"));
          return;
        }
        setBusy(true);
        void onPassword(password).then((problem) => {
          setBusy(false);
          setError(problem);
          if (!problem) close(false);
        });
      }}
    >
      <Field label={t("staff.mfa.password")} error={error ?? undefined}>
        {(control) => (
          <input
            {...control}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            className={CONTROL_CLASS}
          />
        )}
      </Field>
    </ConfirmDialog>
  );
}
