import type { TFunction } from "i18next";
import { MapPin } from "lucide-react";
import { Alert, AlertTitle } from "../../ui/alert.tsx";
import { callOwnerApi } from "../owner-api.ts";

/** An estate the owner may claim, as the verify steps show it. */
export interface PropertySummary {
  id: number;
  name: string;
  location: string;
}

/** A problem shown above a step's form: a title (spec point 8) and the server's detail. */
export interface Problem {
  title: string;
  detail?: string;
  /** The code has expired or was used up: offer a new one. */
  isExpired?: boolean;
}

export function ProblemBox({
  problem,
  children,
}: {
  problem: Problem;
  children?: React.ReactNode;
}) {
  return (
    <Alert data-testid="verify-error">
      <AlertTitle>{problem.title}</AlertTitle>
      {problem.detail && problem.detail !== problem.title && (
        <p className="mt-1">{problem.detail}</p>
      )}
      {children}
    </Alert>
  );
}

type VerifyEmailAnswer = { propertyFound: boolean; codeSent?: boolean };

/** Asks for a code for `email`: null when it was sent, else what went wrong. */
export async function requestCode(
  email: string,
  language: string,
  t: TFunction,
): Promise<Problem | null> {
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

export function PropertyLines({ property }: { property: PropertySummary }) {
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
