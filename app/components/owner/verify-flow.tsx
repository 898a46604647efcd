import { useEffect, useId, useRef, useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Check, KeyRound, Mail, MapPin } from "lucide-react";
import { isEmailAddress } from "../../../domain/owners/owner-fields.ts";
import { inputClass } from "../forms/fields.tsx";
import { useHydrated } from "../staff/staff-page.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { callOwnerApi } from "./owner-api.ts";
import { CARD } from "./owner-styles.ts";

export interface PropertySummary {
  id: number;
  name: string;
  location: string;
}

type Step =
  | { name: "email" }
  | { name: "code"; email: string }
  | { name: "claim"; email: string; properties: PropertySummary[] };

const STEPS = ["email", "code", "claim"] as const;

/** How long an emailed code works (the server's rule; shown to the owner). */
const CODE_VALID_MINUTES = 10;

/** A problem shown above a step's form: a title (spec point 8) and the server's detail. */
interface Problem {
  title: string;
  detail?: string;
  /** The code has expired or was used up: offer a new one. */
  isExpired?: boolean;
}

function ProblemBox({ problem, children }: { problem: Problem; children?: React.ReactNode }) {
  return (
    <div
      role="alert"
      data-testid="verify-error"
      className="border-burgundy/50 text-burgundy rounded-sm border border-l-4 bg-red-50 px-4 py-3 text-sm"
    >
      <p className="font-semibold">{problem.title}</p>
      {problem.detail && problem.detail !== problem.title && (
        <p className="mt-1">{problem.detail}</p>
      )}
      {children}
    </div>
  );
}

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
              "flex items-center gap-2 border-t-4 pt-2 text-sm",
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
            <span>
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
 * Owner verification (spec point 2, decisions.md): an email, a 6-digit code sent to it, then
 * the property to claim. Only a correct code opens the claim step; the claim opens the owner's
 * session and the dashboard.
 */
export function VerifyFlow() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>({ name: "email" });
  const [email, setEmail] = useState("");
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
    </div>
  );
}

type VerifyEmailAnswer = { propertyFound: boolean; codeSent?: boolean };

/** Asks for a code for `email`: null when it was sent, else what went wrong. */
async function requestCode(email: string, language: string, t: TFunction): Promise<Problem | null> {
  const answer = await callOwnerApi<VerifyEmailAnswer>("POST", "/verify-email", {
    body: { email },
    language,
  });
  if (answer.ok && answer.body?.propertyFound === false)
    return { title: t("owner.errors.noProperty") };
  if (answer.ok && answer.body?.propertyFound && answer.body.codeSent) return null;
  return {
    title: t("owner.verify.emailFailed"),
    detail: answer.errors[0]?.message ?? answer.message ?? undefined,
  };
}

function EmailStep({
  email,
  onEmailChange,
  onCodeSent,
}: {
  email: string;
  onEmailChange: (email: string) => void;
  onCodeSent: (email: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  const submit = async () => {
    const address = email.trim();
    setProblem(null);
    if (!isEmailAddress(address)) {
      setFieldError(t("owner.errors.emailInvalid"));
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    const failure = await requestCode(address, i18n.language, t);
    setBusy(false);
    if (failure) setProblem(failure);
    else onCodeSent(address);
  };

  return (
    <>
      <p className="text-muted">{t("owner.verify.emailIntro")}</p>
      {problem && <ProblemBox problem={problem} />}
      <form
        method="post"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        className="grid gap-5"
      >
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-email`} className="text-ink text-sm font-medium">
            {t("owner.verify.emailLabel")}
          </label>
          <input
            ref={input}
            id={`${id}-email`}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            required
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ""}`}
            value={email}
            onChange={(event) => onEmailChange(event.currentTarget.value)}
            className={inputClass}
            data-testid="owner-email-input"
          />
          <p id={`${id}-hint`} className="text-muted text-sm">
            {t("owner.verify.emailHint")}
          </p>
          {fieldError && (
            <p id={`${id}-error`} className="text-sm font-medium text-orange-800">
              {fieldError}
            </p>
          )}
        </div>
        <Button type="submit" size="lg" disabled={!hydrated || isBusy} data-testid="verify-email">
          <Mail aria-hidden className="size-5" />
          {isBusy ? t("owner.verify.submittingEmail") : t("owner.verify.submitEmail")}
        </Button>
      </form>
    </>
  );
}

type VerifyCodeAnswer = {
  propertyFound: boolean;
  property?: PropertySummary;
  properties?: PropertySummary[];
};

function CodeStep({
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
    if (!/^\d{6}$/.test(digits)) {
      setFieldError(t("owner.verify.codeFormat"));
      input.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    const answer = await callOwnerApi<VerifyCodeAnswer>("POST", "/verify-code", {
      body: { email, code: digits },
      language: i18n.language,
    });
    setBusy(false);
    const body = answer.body;
    if (answer.ok && body?.propertyFound) {
      const properties = body.properties?.length
        ? body.properties
        : body.property
          ? [body.property]
          : [];
      if (properties.length > 0) return onVerified(properties);
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
        {t("owner.verify.codeSent", { email, minutes: CODE_VALID_MINUTES })}
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
        <div className="grid gap-1.5">
          <label htmlFor={`${id}-code`} className="text-ink text-sm font-medium">
            {t("owner.verify.codeLabel")}
          </label>
          <input
            ref={input}
            id={`${id}-code`}
            name="code"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            required
            autoFocus
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${id}-sent ${id}-hint${fieldError ? ` ${id}-error` : ""}`}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, "").slice(0, 6))}
            className={cn(inputClass, "max-w-56 text-center font-mono text-2xl tracking-[0.4em]")}
            data-testid="owner-code-input"
          />
          <p id={`${id}-hint`} className="text-muted text-sm">
            {t("owner.verify.codeHint")}
          </p>
          {fieldError && (
            <p id={`${id}-error`} className="text-sm font-medium text-orange-800">
              {fieldError}
            </p>
          )}
        </div>
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

function ClaimStep({ email, properties }: { email: string; properties: PropertySummary[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState(properties[0]?.id ?? null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isSeveral = properties.length > 1;

  const claim = async () => {
    if (chosen === null) return;
    setProblem(null);
    setBusy(true);
    const answer = await callOwnerApi<{ claimed: boolean; property: PropertySummary }>(
      "POST",
      "/claim-property",
      { body: { email, propertyId: chosen }, language: i18n.language },
    );
    if (answer.ok && answer.body?.claimed) {
      await navigate(`/admin/dashboard?estate=${answer.body.property?.id ?? chosen}`);
      return;
    }
    setBusy(false);
    setProblem({
      title: t("owner.errors.claimFailed"),
      detail: answer.message ?? undefined,
    });
  };

  return (
    <>
      <p className="text-muted">
        {isSeveral ? t("owner.verify.chooseProperty") : t("owner.verify.claimIntro")}
      </p>
      {problem && <ProblemBox problem={problem} />}
      <form
        method="post"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void claim();
        }}
        className="grid gap-6"
      >
        {isSeveral ? (
          <fieldset className="grid gap-3">
            <legend className="sr-only">{t("owner.verify.propertyLegend")}</legend>
            {properties.map((property) => (
              <label
                key={property.id}
                className="border-gold/40 has-checked:border-heritage has-checked:bg-heritage/5 has-focus-visible:outline-gold flex cursor-pointer items-start gap-3 rounded-sm border p-4 has-focus-visible:outline-2 has-focus-visible:outline-offset-2"
              >
                <input
                  type="radio"
                  name="property"
                  value={property.id}
                  checked={chosen === property.id}
                  onChange={() => setChosen(property.id)}
                  className="accent-heritage mt-1 size-4 shrink-0"
                />
                <PropertyLines property={property} />
              </label>
            ))}
          </fieldset>
        ) : (
          properties[0] && (
            <div
              className="border-gold/40 bg-ivory rounded-sm border p-4"
              data-testid="claim-property"
            >
              <PropertyLines property={properties[0]} />
            </div>
          )
        )}
        <Button type="submit" size="lg" disabled={isBusy || chosen === null} data-testid="claim">
          <Check aria-hidden className="size-5" />
          {isBusy ? t("owner.verify.submittingClaim") : t("owner.verify.submitClaim")}
        </Button>
      </form>
    </>
  );
}

function PropertyLines({ property }: { property: PropertySummary }) {
  return (
    <span className="grid gap-1">
      <span className="font-display text-heritage text-2xl font-semibold">{property.name}</span>
      <span className="text-muted flex items-center gap-1.5 text-sm">
        <MapPin aria-hidden className="size-4 shrink-0" />
        {property.location}
      </span>
    </span>
  );
}
