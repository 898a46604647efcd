import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { CheckCircle2 } from "lucide-react";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import type { MembershipInput } from "#domain/requests/membership.schema.ts";
import { GENDERS, INTERESTS, SUCCESS_REDIRECT_MS, TITLES } from "#domain/requests/options.ts";
import { toast } from "#app/hooks/use-toast.ts";
import {
  CheckboxGroupField,
  SelectField,
  TextAreaField,
  TextField,
  useOptionList,
} from "./fields.tsx";
import { GuestForm } from "./guest-form.tsx";
import { useGuestForm } from "./use-guest-form.ts";

const FORM_ID = "membership-form";

const FIELDS = [
  "title",
  "firstName",
  "lastName",
  "gender",
  "email",
  "otherClubMemberships",
  "linkedinProfile",
  "instagramHandle",
  "xHandle",
  "interests",
  "reasonToJoin",
  "turnstileToken",
] as const;

export interface MembershipFormProps {
  botCheck: BotCheckClientConfig | null;
}

/** The membership application, then its confirmation in place of the form. */
export function MembershipForm({ botCheck }: MembershipFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [submitted, setSubmitted] = useState(false);
  const options = useOptionList();
  const guest = useGuestForm<Required<MembershipInput>>({
    formId: FORM_ID,
    loadSchema: () =>
      import("#domain/requests/membership.schema.ts").then((module) => module.membershipSchema),
    loadOperation: () =>
      import("#domain/requests/requests.contract.ts").then(
        (module) => module.createMembershipApplication,
      ),
    fields: FIELDS,
    defaultValues: {
      title: "" as never,
      firstName: "",
      lastName: "",
      gender: "" as never,
      email: "",
      otherClubMemberships: "",
      linkedinProfile: "",
      instagramHandle: "",
      xHandle: "",
      interests: [],
      reasonToJoin: "",
      turnstileToken: "",
    },
    failure: {
      failed: t("forms.membership.failed"),
      fallback: t("forms.membership.failedFallback"),
    },
    onSuccess() {
      setSubmitted(true);
      toast({
        title: t("forms.membership.successTitle"),
        description: t("forms.membership.successText"),
      });
      setTimeout(() => void navigate("/"), SUCCESS_REDIRECT_MS);
    },
  });
  const { labels } = guest;

  return submitted ? (
    <div
      role="status"
      data-testid="membership-confirmation"
      className="border-heritage/30 bg-paper shadow-card mt-10 flex max-w-3xl items-start gap-4 rounded-sm border p-8"
    >
      <CheckCircle2 aria-hidden className="text-heritage mt-1 size-8 shrink-0" />
      <div>
        <h2 className="font-display text-heritage text-3xl font-semibold">
          {t("forms.membership.successTitle")}
        </h2>
        <p className="text-muted mt-2">{t("forms.membership.successText")}</p>
      </div>
    </div>
  ) : (
    <GuestForm
      guest={guest}
      botCheck={botCheck}
      className="border-gold/30 bg-paper shadow-card mt-10 grid max-w-3xl gap-6 rounded-sm border p-6 sm:grid-cols-2 sm:p-10"
      wideClassName="sm:col-span-2"
    >
      <SelectField
        name="title"
        label={labels.title!}
        required
        placeholder=""
        options={options("forms.options.title", TITLES)}
        className="sm:col-span-2 sm:max-w-xs"
      />
      <TextField name="firstName" label={labels.firstName!} required autoComplete="given-name" />
      <TextField name="lastName" label={labels.lastName!} required autoComplete="family-name" />
      <SelectField
        name="gender"
        label={labels.gender!}
        required
        placeholder=""
        options={options("forms.options.gender", GENDERS)}
      />
      <TextField name="email" label={labels.email!} required type="email" autoComplete="email" />
      <TextField
        name="otherClubMemberships"
        label={labels.otherClubMemberships!}
        className="sm:col-span-2"
      />
      <TextField name="linkedinProfile" label={labels.linkedinProfile!} type="url" />
      <TextField name="instagramHandle" label={labels.instagramHandle!} />
      <TextField name="xHandle" label={labels.xHandle!} />
      <div className="sm:col-span-2">
        <CheckboxGroupField
          name="interests"
          label={labels.interests!}
          required
          columns={2}
          options={options("forms.options.interests", INTERESTS)}
        />
      </div>
      <TextAreaField
        name="reasonToJoin"
        label={labels.reasonToJoin!}
        required
        className="sm:col-span-2"
      />
    </GuestForm>
  );
}
