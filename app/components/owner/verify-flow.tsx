import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Check } from "lucide-react";
import { PasskeySignInButton } from "../auth/passkey-sign-in-button.tsx";
import { cn } from "../ui/cn.ts";
import { CARD } from "./owner-styles.ts";
import { ClaimStep } from "./verify/claim-step.tsx";
import { CodeStep } from "./verify/code-step.tsx";
import { EmailStep } from "./verify/email-step.tsx";
import type { PropertySummary } from "./verify/verify-shared.tsx";

export type { PropertySummary } from "./verify/verify-shared.tsx";

type Step =
  | { name: "email" }
  | { name: "code"; email: string }
  | { name: "claim"; email: string; properties: PropertySummary[] };

const STEPS = ["email", "code", "claim"] as const;

/** The step list above the form: where the owner is, and how far to go. */
function StepList({ current }: { current: Step["name"] }) {
  const { t } = useTranslation();
  const index = STEPS.indexOf(current);
  return (
    <ol aria-label={t("owner.verify.steps.label")} className="grid grid-cols-3 gap-2">
      {STEPS.map((step, position) => {
        const isDone = position < index;
        const isCurrent = position === index;
        return (
          <li
            key={step}
            aria-current={isCurrent ? "step" : undefined}
            className={cn(
              // On a phone the number sits above the name, so a long word ("Revendication")
              // has the column's whole width.
              "flex flex-col items-start gap-1 border-t-4 pt-2 text-sm sm:flex-row sm:items-center sm:gap-2",
              isCurrent
                ? "border-heritage text-heritage font-semibold"
                : isDone
                  ? "border-gold text-ink"
                  : "text-muted border-stone-300",
            )}
          >
            <span
              aria-hidden
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs",
                isCurrent
                  ? "bg-heritage text-ivory"
                  : isDone
                    ? "bg-gold/20 text-ink"
                    : "text-ink bg-stone-200",
              )}
            >
              {isDone ? <Check className="size-3.5" /> : position + 1}
            </span>
            <span className="max-w-full min-w-0 break-words hyphens-auto">
              <span className="sr-only">
                {t("owner.verify.steps.number", { step: position + 1, total: STEPS.length })}{" "}
              </span>
              {t(`owner.verify.steps.${step}`)}
              {isDone && <span className="sr-only"> {t("owner.verify.steps.done")}</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Owner verification (decisions.md): an email, a 6-digit code sent to it, then
 * the property to claim. Only a correct code opens the claim step; the claim opens the owner's
 * session and the dashboard.
 */
export function VerifyFlow() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ name: "email" });
  const [email, setEmail] = useState("");
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const isFirstRender = useRef(true);

  // A new step is announced by moving focus to its heading (not on the first render). The
  // code step focuses its input instead, which is described by where the code was sent.
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false;
      return;
    }
    if (step.name !== "code") heading.current?.focus();
  }, [step.name]);

  const titles: Record<Step["name"], string> = {
    email: t("owner.verify.emailHeading"),
    code: t("owner.verify.codeHeading"),
    claim: t("owner.verify.claimHeading"),
  };

  return (
    <div className="grid max-w-xl gap-8">
      <StepList current={step.name} />
      <section aria-labelledby="verify-step-heading" className={cn(CARD, "grid gap-6 p-6 sm:p-10")}>
        <h2
          id="verify-step-heading"
          ref={heading}
          tabIndex={-1}
          className="text-heritage text-3xl font-semibold focus:outline-none"
        >
          {titles[step.name]}
        </h2>
        {step.name === "email" && (
          <EmailStep
            email={email}
            onEmailChange={setEmail}
            onCodeSent={(address) => setStep({ name: "code", email: address })}
          />
        )}
        {step.name === "code" && (
          <CodeStep
            email={step.email}
            onVerified={(properties) => setStep({ name: "claim", email: step.email, properties })}
            onChangeEmail={() => setStep({ name: "email" })}
          />
        )}
        {step.name === "claim" && <ClaimStep email={step.email} properties={step.properties} />}
      </section>
      {step.name === "email" && (
        <PasskeySignInButton
          role="owner"
          onSignedIn={() => navigate("/admin/dashboard", { replace: true })}
        />
      )}
    </div>
  );
}
