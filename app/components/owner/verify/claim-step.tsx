import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { Check } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { claimProperty } from "#domain/owners/owners.contract.ts";
import { callApi } from "#app/api-client.ts";
import { isOwnerTab } from "../owner-tab-ids.ts";
import { type Problem, ProblemBox, PropertyLines, type PropertySummary } from "./verify-shared.tsx";

/** Step 3: the estate to claim; claiming opens the owner's session and the dashboard. */
export function ClaimStep({ email, properties }: { email: string; properties: PropertySummary[] }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  // The tab a mail's link asked for before the owner had to sign in.
  const [search] = useSearchParams();
  const tab = search.get("tab");
  const [chosen, setChosen] = useState(properties[0]?.id ?? null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [isBusy, setBusy] = useState(false);
  const isSeveral = properties.length > 1;

  const claim = async () => {
    if (chosen === null) return;
    setProblem(null);
    setBusy(true);
    const answer = await callApi(
      claimProperty,
      { body: { email, propertyId: chosen } },
      { language: i18n.language },
    );
    if (answer.ok) {
      const next = new URLSearchParams({ estate: String(answer.data.property.id) });
      if (tab && isOwnerTab(tab)) next.set("tab", tab);
      await navigate(`/admin/dashboard?${next}`);
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
