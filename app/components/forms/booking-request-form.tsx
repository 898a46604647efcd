import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import type { BookingRequestInput } from "#domain/requests/booking-request.schema.ts";
import {
  AMENITY_KEYS,
  BOOKING_TYPES,
  EXPERIENCE_STYLES,
  HEARD_ABOUT,
  MEMBER_STATUSES,
  REGIONS,
  REQUESTED_SERVICES,
  SUCCESS_REDIRECT_MS,
} from "#domain/requests/options.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { useLocalToday } from "#app/hooks/use-local-today.ts";
import {
  CheckboxField,
  CheckboxGroupField,
  DateField,
  FormSection,
  NumberField,
  type Option,
  SelectField,
  TextAreaField,
  TextField,
  useOptionList,
} from "./fields.tsx";
import { GuestForm } from "./guest-form.tsx";
import { useGuestForm } from "./use-guest-form.ts";

const FORM_ID = "booking-request-form";

const FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phoneNumber",
  "memberStatus",
  "countryOfResidence",
  "bookingType",
  "checkInDate",
  "checkOutDate",
  "flexibleDates",
  "estimatedGuests",
  "adults",
  "children",
  "bedroomsRequired",
  "preferredRegion",
  "preferredAmenities",
  "requestedServices",
  "experienceStyle",
  "privacyPriority",
  "fullExclusivityNeeded",
  "bookingGoal",
  "heardAboutCastellum",
  "specialRequests",
  "turnstileToken",
] as const;

export interface BookingRequestFormProps {
  countries: Option[];
  botCheck: BotCheckClientConfig | null;
  /** The server's date; the browser replaces it with the guest's own once hydrated. */
  serverToday: string;
}

/** The general booking request: four sections, the bot check, the submit. */
export function BookingRequestForm({ countries, botCheck, serverToday }: BookingRequestFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = useLocalToday(serverToday);
  const options = useOptionList();
  const guest = useGuestForm<Required<BookingRequestInput>>({
    formId: FORM_ID,
    loadSchema: () =>
      import("#domain/requests/booking-request.schema.ts").then(
        (module) => module.bookingRequestSchema,
      ),
    loadOperation: () =>
      import("#domain/requests/requests.contract.ts").then((module) => module.createBookingRequest),
    fields: FIELDS,
    defaultValues: {
      firstName: "",
      lastName: "",
      email: "",
      phoneNumber: "",
      memberStatus: "" as never,
      countryOfResidence: "" as never,
      bookingType: [],
      checkInDate: "",
      checkOutDate: "",
      flexibleDates: false,
      estimatedGuests: 1,
      adults: 1,
      children: 0,
      bedroomsRequired: 1,
      preferredRegion: [],
      preferredAmenities: [],
      requestedServices: [],
      experienceStyle: [],
      privacyPriority: false,
      fullExclusivityNeeded: false,
      bookingGoal: "",
      heardAboutCastellum: "" as never,
      specialRequests: "",
      turnstileToken: "",
    },
    failure: {
      failed: t("forms.bookingRequest.failed"),
      fallback: t("forms.bookingRequest.failedFallback"),
    },
    onSuccess() {
      toast({
        title: t("forms.bookingRequest.successTitle"),
        description: t("forms.bookingRequest.successText"),
      });
      guest.reset();
      setTimeout(() => void navigate("/"), SUCCESS_REDIRECT_MS);
    },
  });
  const { labels } = guest;
  const checkIn = guest.form.watch("checkInDate");

  return (
    <GuestForm
      guest={guest}
      botCheck={botCheck}
      className="border-gold/30 bg-paper shadow-card mt-10 flex max-w-4xl flex-col gap-10 rounded-sm border p-6 sm:p-10"
    >
      <FormSection title={t("forms.bookingRequest.sections.personal")}>
        <TextField name="firstName" label={labels.firstName!} required autoComplete="given-name" />
        <TextField name="lastName" label={labels.lastName!} required autoComplete="family-name" />
        <TextField name="email" label={labels.email!} required type="email" autoComplete="email" />
        <TextField
          name="phoneNumber"
          label={labels.phoneNumber!}
          required
          type="tel"
          autoComplete="tel"
        />
        <SelectField
          name="memberStatus"
          label={labels.memberStatus!}
          required
          placeholder=""
          options={options("forms.options.memberStatus", MEMBER_STATUSES)}
        />
        <SelectField
          name="countryOfResidence"
          label={labels.countryOfResidence!}
          required
          placeholder=""
          options={countries}
        />
      </FormSection>

      <FormSection title={t("forms.bookingRequest.sections.booking")}>
        <div className="sm:col-span-2">
          <CheckboxGroupField
            name="bookingType"
            label={labels.bookingType!}
            required
            columns={4}
            options={options("forms.options.bookingType", BOOKING_TYPES)}
          />
        </div>
        <DateField name="checkInDate" label={labels.checkInDate!} required min={today} />
        <DateField
          name="checkOutDate"
          label={labels.checkOutDate!}
          required
          min={checkIn && checkIn > today ? checkIn : today}
        />
        <div className="sm:col-span-2">
          <CheckboxField name="flexibleDates" label={labels.flexibleDates!} />
        </div>
        <NumberField name="estimatedGuests" label={labels.estimatedGuests!} required min={1} />
        <NumberField name="bedroomsRequired" label={labels.bedroomsRequired!} required min={1} />
        <NumberField name="adults" label={labels.adults!} required min={1} />
        <NumberField name="children" label={labels.children!} min={0} />
      </FormSection>

      <FormSection title={t("forms.bookingRequest.sections.preferences")}>
        <div className="flex flex-col gap-8 sm:col-span-2">
          <CheckboxGroupField
            name="preferredRegion"
            label={labels.preferredRegion!}
            required
            columns={4}
            options={options("regions", REGIONS)}
          />
          <CheckboxGroupField
            name="preferredAmenities"
            label={labels.preferredAmenities!}
            columns={4}
            options={options("amenities", AMENITY_KEYS)}
          />
          <CheckboxGroupField
            name="requestedServices"
            label={labels.requestedServices!}
            columns={4}
            options={options("forms.options.requestedServices", REQUESTED_SERVICES)}
          />
          <CheckboxGroupField
            name="experienceStyle"
            label={labels.experienceStyle!}
            columns={4}
            options={options("forms.options.experienceStyle", EXPERIENCE_STYLES)}
          />
          <CheckboxField name="privacyPriority" label={labels.privacyPriority!} />
          <CheckboxField name="fullExclusivityNeeded" label={labels.fullExclusivityNeeded!} />
        </div>
      </FormSection>

      <FormSection title={t("forms.bookingRequest.sections.additional")}>
        <TextAreaField
          name="bookingGoal"
          label={labels.bookingGoal!}
          required
          className="sm:col-span-2"
        />
        <SelectField
          name="heardAboutCastellum"
          label={labels.heardAboutCastellum!}
          required
          placeholder=""
          options={options("forms.options.heardAboutCastellum", HEARD_ABOUT)}
        />
        <TextAreaField
          name="specialRequests"
          label={labels.specialRequests!}
          className="sm:col-span-2"
        />
      </FormSection>
    </GuestForm>
  );
}
