import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Info } from "lucide-react";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import type { Currency } from "#domain/pricing/money.ts";
import {
  CASTELLUM_STATUSES,
  DATE_MODES,
  FORM_LIMITS,
  PAYMENT_METHODS,
} from "#domain/requests/options.ts";
import type { PropertyBookingInput } from "#domain/requests/property-booking.schema.ts";
import { isIsoDate } from "#domain/requests/dates.ts";
import { firstTakenNight, type Nights, stayNights } from "#domain/calendar/nights.ts";
import { isLanguage } from "#i18n/config.ts";
import { AvailabilityCalendar } from "../availability-calendar.tsx";
import { StayEstimate } from "../stay-estimate.tsx";
import { longDate } from "../ui/month-grid-dates.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { useLocalToday } from "#app/hooks/use-local-today.ts";
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
import type { StayDates } from "#domain/catalogue/catalogue-filter.schema.ts";

const FORM_ID = "property-booking-form";

/**
 * The currency each payment method pays in, in which the estimate also shows the price
 * (approximately, when it is not the estate's own). $CASL has no reference rate: none.
 */
const DISPLAY_CURRENCY: Record<(typeof PAYMENT_METHODS)[number], Currency | undefined> = {
  casl: undefined,
  usd: "USD",
  eur: "EUR",
  gbp: "GBP",
};

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
  /** The estate's taken nights over the months shown (merged, end exclusive). */
  unavailable: Nights[];
  lastDate: string;
  lastDateLabel: string;
  /** The dates the guest searched for on /castles: the form starts with them. */
  stay?: StayDates | null;
}

/** A property's booking form: dates within the booking window, guests, status. */
export function PropertyBookingForm({
  property,
  botCheck,
  bookingHorizonMonths,
  serverToday,
  unavailable,
  lastDate,
  lastDateLabel,
  stay,
}: PropertyBookingFormProps) {
  const { t, i18n } = useTranslation();
  const language = isLanguage(i18n.language) ? i18n.language : "en";
  /** The first taken night of the dates, as the guest's language writes it; null if none. */
  const takenNightOf = (startDate: unknown, endDate: unknown): string | null => {
    if (typeof startDate !== "string" || !isIsoDate(startDate)) return null;
    const end =
      typeof endDate === "string" && isIsoDate(endDate) && endDate >= startDate
        ? endDate
        : startDate;
    const night = firstTakenNight(stayNights(startDate, end), unavailable);
    return night && t("validation.nightsUnavailable", { date: longDate(night, language) });
  };
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
    startDate: stay?.checkIn ?? "",
    endDate: stay?.checkOut ?? "",
    flexibilityDays: 0,
    numberOfGuests: 1,
    castellumStatus: "caslHolder" as const,
    paymentMethod: "casl" as const,
    specialRequests: "",
    turnstileToken: "",
  };
  const guest = useGuestForm<Required<PropertyBookingInput>>({
    formId: FORM_ID,
    // The server refuses taken nights too (domain/requests/intake/check-guest-request.ts); here the
    // guest hears it before sending, and a submit with taken nights goes nowhere.
    loadSchema: () =>
      import("#domain/requests/property-booking.schema.ts").then((module) =>
        // Taken nights are the start date's error even while other fields (or the bot
        // check) are still missing: the guest hears of them first.
        module.propertyBookingSchema(bookingHorizonMonths, takenNightOf),
      ),
    loadOperation: () =>
      import("#domain/requests/requests.contract.ts").then(
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
  const endDate = form.watch("endDate");
  const numberOfGuests = form.watch("numberOfGuests");
  const paymentMethod = form.watch("paymentMethod");
  const options = useOptionList();

  // As soon as the dates are chosen: a taken night is the start date's error, naming it.
  // Once the dates are free again it goes, whether this check or the schema's (on submit) set it.
  const takenMessage = takenNightOf(startDate, endDate);
  const lastTakenMessage = useRef<string | null>(null);
  useEffect(() => {
    const current = form.getFieldState("startDate").error;
    if (takenMessage) {
      lastTakenMessage.current = takenMessage;
      if (current?.message !== takenMessage)
        form.setError("startDate", { type: "availability", message: takenMessage });
    } else if (
      current &&
      (current.type === "availability" || current.message === lastTakenMessage.current)
    )
      form.clearErrors("startDate");
  }, [form, takenMessage]);

  /** A day picked in the calendar: the arrival, then the departure after it. */
  const pickDay = (date: string) => {
    const how = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
    if (isIsoDate(startDate) && !endDate && date > startDate) {
      form.setValue("endDate", date, how);
    } else {
      form.setValue("startDate", date, how);
      form.setValue("endDate", "", how);
    }
  };

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
      <AvailabilityCalendar
        unavailable={unavailable}
        today={today}
        lastDate={lastDate}
        picked={{ start: startDate, end: endDate }}
        onSelectDay={pickDay}
        intro={t("availability.introBooking")}
        className="border-gold/30 bg-ivory/60 rounded-sm border p-4 sm:col-span-2 sm:p-6"
      />
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
      <StayEstimate
        slug={property.slug}
        checkIn={startDate}
        checkOut={endDate}
        guests={Number(numberOfGuests)}
        displayCurrency={DISPLAY_CURRENCY[paymentMethod]}
        className="sm:col-span-2"
      />
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
