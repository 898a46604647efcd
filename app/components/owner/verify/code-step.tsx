import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { KeyRound } from "lucide-react";
import {
  isOwnerCodeShape,
  OWNER_CODE_MINUTES,
  OWNER_CODE_POLICY,
} from "#domain/owners/owner-code.ts";
import { inputClass } from "#app/components/forms/fields.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/components/ui/cn.ts";
import { Field } from "#app/components/ui/field.tsx";
import { verifyOwnerCode } from "#domain/owners/owners.contract.ts";
import { callApi } from "#app/api-client.ts";
import { type Problem, ProblemBox, type PropertySummary, requestCode } from "./verify-shared.tsx";

const CODE_LENGTH = OWNER_CODE_POLICY.length;

/** Step 2: the code from the email; a correct one answers the estates to claim. */
export function CodeStep({
  email,
  onVerified,
  onChangeEmail,
}: {
  email: string;
  onVerified: (properties: PropertySummary[]) => void;
  onChangeEmail: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<Problem | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [isBusy, setBusy] = useState(false);
  const [isResending, setResending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = async () => {
    const digits = code.replace(/\s+/g, "");
    setProblem(null);
    setNotice("");
    if (!isOwnerCodeShape(digits)) {
      setFieldError(t("owner.verify.codeFormat", { length: CODE_LENGTH }));
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    const answer = await callApi(
      verifyOwnerCode,
      { body: { email, code: digits } },
      { language: i18n.language },
    );
    setBusy(false);
    if (answer.ok && answer.data.propertyFound) {
      const { properties, property } = answer.data;
      const found = properties.length > 0 ? properties : property ? [property] : [];
      if (found.length > 0) return onVerified(found);
    }
    setCode("");
    setProblem({
      title: t("owner.verify.verifyFailed"),
      detail: answer.ok ? t("owner.errors.noProperty") : (answer.message ?? undefined),
      isExpired: answer.status === 410,
    });
    input.current?.focus();
  };

  const resend = async () => {
    setResending(true);
    setProblem(null);
    setNotice("");
    const failure = await requestCode(email, i18n.language, t);
    setResending(false);
    if (failure) setProblem(failure);
    else {
      setCode("");
      setNotice(t("owner.verify.resent", { email }));
      input.current?.focus();
    }
  };

  const resendButton = (
    <button
      type="button"
      onClick={() => void resend()}
      disabled={isResending}
      className="text-heritage rounded-sm font-medium underline underline-offset-4 disabled:opacity-60"
      data-testid="resend-code"
    >
      {isResending ? t("owner.verify.resending") : t("owner.verify.resend")}
    </button>
  );

  return (
    <>
      <p id={`${id}-sent`} className="text-ink" data-testid="code-sent">
        {t("owner.verify.codeSent", {
          email,
          minutes: OWNER_CODE_MINUTES,
          length: CODE_LENGTH,
        })}
      </p>
      {problem && (
        <ProblemBox problem={problem}>
          {problem.isExpired && <p className="mt-2">{resendButton}</p>}
        </ProblemBox>
      )}
      <p role="status" className={notice ? "text-heritage text-sm font-medium" : "sr-only"}>
        {notice}
      </p>
      <form
        method="post"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="grid gap-5"
      >
        <Field
          label={t("owner.verify.codeLabel")}
          hint={t("owner.verify.codeHint", { length: CODE_LENGTH })}
          error={fieldError}
        >
          {(control) => (
            <input
              {...control}
              ref={input}
              // Also described by where the code was sent.
              aria-describedby={`${id}-sent ${control["aria-describedby"] ?? ""}`.trim()}
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]*"
              maxLength={CODE_LENGTH}
              required
              autoFocus
              value={code}
              onChange={(event) =>
                setCode(event.currentTarget.value.replace(/\D/g, "").slice(0, CODE_LENGTH))
              }
              className={cn(inputClass, "max-w-56 text-center font-mono text-2xl tracking-[0.4em]")}
              data-testid="owner-code-input"
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={isBusy} data-testid="verify-code">
          <KeyRound aria-hidden className="size-5" />
          {isBusy ? t("owner.verify.submittingCode") : t("owner.verify.submitCode")}
        </Button>
      </form>
      <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {!problem?.isExpired && resendButton}
        <button
          type="button"
          onClick={onChangeEmail}
          className="text-heritage rounded-sm font-medium underline underline-offset-4"
        >
          {t("owner.verify.changeEmail")}
        </button>
      </div>
    </>
  );
}
