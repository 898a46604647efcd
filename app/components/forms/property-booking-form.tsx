import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Info } from "lucide-react";
import type { BotCheckClientConfig } from "../../../domain/bot-check/config.ts";
import {
  CASTELLUM_STATUSES,
  DATE_MODES,
  FORM_LIMITS,
  PAYMENT_METHODS,
} from "../../../domain/requests/options.ts";
import type { PropertyBookingInput } from "../../../domain/requests/property-booking.schema.ts";
import { toast } from "../../hooks/use-toast.ts";
import { useLocalToday } from "../../hooks/use-local-today.ts";
import {
  DateField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
  useOptionList,
} from "./fields.tsx";
import { GuestForm } from "./guest-form.tsx";
import { useGuestForm } from "./use-guest-form.ts";

const FORM_ID = "property-booking-form";

const FIELDS = [
  "propertyId",
  "firstName",
  "lastName",
  "email",
  "phone",
  "dateMode",
  "startDate",
  "endDate",
  "flexibilityDays",
  "numberOfGuests",
  "castellumStatus",
  "paymentMethod",
  "specialRequests",
  "turnstileToken",
] as const;

export interface PropertyBookingFormProps {
  property: { id: number; slug: string; name: string };
  botCheck: BotCheckClientConfig | null;
  bookingHorizonMonths: number;
  /** The server's date; the browser replaces it with the guest's own once hydrated. */
  serverToday: string;
  lastDate: string;
  lastDateLabel: string;
}

/** A property's booking form (spec point 3): dates within the booking window, guests, status. */
export function PropertyBookingForm({
  property,
  botCheck,
  bookingHorizonMonths,
  serverToday,
  lastDate,
  lastDateLabel,
}: PropertyBookingFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = useLocalToday(serverToday);
  const defaultValues = {
    propertyId: property.id,
    propertyName: property.name,
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    dateMode: "exact" as const,
    startDate: "",
    endDate: "",
    flexibilityDays: 0,
    numberOfGuests: 1,
    castellumStatus: "caslHolder" as const,
    paymentMethod: "casl" as const,
    specialRequests: "",
    turnstileToken: "",
  };
  const guest = useGuestForm<Required<PropertyBookingInput>>({
    formId: FORM_ID,
    loadSchema: () =>
      import("../../../domain/requests/property-booking.schema.ts").then((module) =>
        module.propertyBookingSchema(bookingHorizonMonths),
      ),
    loadOperation: () =>
      import("../../../domain/requests/requests.contract.ts").then(
        (module) => module.createPropertyBooking,
      ),
    fields: FIELDS,
    defaultValues,
    failure: { failed: t("forms.propertyBooking.failed") },
    onSuccess() {
      toast({
        title: t("forms.propertyBooking.successTitle"),
        description: t("forms.propertyBooking.successText"),
      });
      guest.reset();
      void navigate(`/property/${property.slug}`);
    },
  });
  const { form, labels } = guest;
  const dateMode = form.watch("dateMode");
  const startDate = form.watch("startDate");
  const options = useOptionList();

  return (
    <GuestForm
      guest={guest}
      botCheck={botCheck}
      className="border-gold/30 bg-paper shadow-card mt-10 grid gap-6 rounded-sm border p-6 sm:grid-cols-2 sm:p-10"
      wideClassName="sm:col-span-2"
      intro={
        <p className="border-gold/40 bg-ivory text-ink flex gap-3 rounded-sm border p-4 text-sm sm:col-span-2">
          <Info aria-hidden className="text-gold mt-0.5 size-5 shrink-0" />
          {t("forms.propertyBooking.notice")}
        </p>
      }
    >
      <TextField name="firstName" label={labels.firstName!} required autoComplete="given-name" />
      <TextField name="lastName" label={labels.lastName!} required autoComplete="family-name" />
      <TextField name="email" label={labels.email!} required type="email" autoComplete="email" />
      <TextField name="phone" label={labels.phone!} required type="tel" autoComplete="tel" />

      <fieldset className="sm:col-span-2" data-field="dateMode">
        <legend className="text-ink mb-2 text-sm font-medium">{labels.dateMode}</legend>
        <div className="border-heritage/40 inline-flex rounded-sm border p-1" role="radiogroup">
          {DATE_MODES.map((mode) => (
            <label
              key={mode}
              className="has-checked:bg-heritage has-checked:text-ivory has-focus-visible:outline-gold text-heritage cursor-pointer rounded-sm px-4 py-2 text-sm font-medium has-focus-visible:outline-2"
            >
              <input
                type="radio"
                value={mode}
                {...form.register("dateMode")}
                defaultChecked={form.getValues("dateMode") === mode}
                className="sr-only"
              />
              {t(`forms.options.dateMode.${mode}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <DateField
        name="startDate"
        label={labels.startDate!}
        required
        min={today}
        max={lastDate}
        hint={t("forms.propertyBooking.windowHelp", { date: lastDateLabel })}
      />
      <DateField
        name="endDate"
        label={labels.endDate!}
        required
        min={startDate && startDate > today ? startDate : today}
        max={lastDate}
      />
      {dateMode === "flexible" && (
        <NumberField
          name="flexibilityDays"
          label={labels.flexibilityDays!}
          min={0}
          max={FORM_LIMITS.flexibilityDaysMax}
          hint={t("forms.propertyBooking.flexibilityHelp")}
        />
      )}
      <NumberField name="numberOfGuests" label={labels.numberOfGuests!} required min={1} />
      <SelectField
        name="castellumStatus"
        label={labels.castellumStatus!}
        options={options("forms.options.castellumStatus", CASTELLUM_STATUSES)}
        hint={t("forms.propertyBooking.statusHelp")}
      />
      <SelectField
        name="paymentMethod"
        label={labels.paymentMethod!}
        options={options("forms.options.paymentMethod", PAYMENT_METHODS)}
      />
      <TextAreaField
        name="specialRequests"
        label={labels.specialRequests!}
        className="sm:col-span-2"
      />
    </GuestForm>
  );
}
