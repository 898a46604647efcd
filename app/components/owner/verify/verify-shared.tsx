import type { TFunction } from "i18next";
import { MapPin } from "lucide-react";
import type { z } from "zod";
import { type OwnerEstateSchema, verifyOwnerEmail } from "#domain/owners/owners.contract.ts";
import { callApi } from "#app/api-client.ts";
import { Alert, AlertTitle } from "#app/components/ui/alert.tsx";

/** An estate the owner may claim, as verify-code answers it. */
export type PropertySummary = z.output<typeof OwnerEstateSchema>;

/** A problem shown above a step's form: a title and the server's detail. */
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

/** Asks for a code for `email`: null when it was sent, else what went wrong. */
export async function requestCode(
  email: string,
  language: string,
  t: TFunction,
): Promise<Problem | null> {
  const answer = await callApi(verifyOwnerEmail, { body: { email } }, { language });
  if (answer.ok) return answer.data.propertyFound ? null : { title: t("owner.errors.noProperty") };
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
