import { FormProvider } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, useNavigate } from "react-router";
import { BedDouble, Info, MapPin } from "lucide-react";
import { getProperty } from "../../domain/catalogue/read-properties.ts";
import { NotFoundError } from "../../domain/errors.ts";
import { lastBookableDate, utcToday } from "../../domain/requests/dates.ts";
import {
  CASTELLUM_STATUSES,
  DATE_MODES,
  FORM_LIMITS,
  PAYMENT_METHODS,
} from "../../domain/requests/options.ts";
import type { PropertyBookingInput } from "../../domain/requests/property-booking.schema.ts";
import { formatDate } from "../../domain/requests/summary.ts";
import { translate } from "../../i18n/translate.ts";
import type { Route } from "./+types/booking";
import { depsContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { BackLink, EstateRouteError } from "../components/back-link.tsx";
import { ResponsiveImage } from "../components/responsive-image.tsx";
import { ErrorSummary } from "../components/forms/error-summary.tsx";
import {
  DateField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
  useOptionList,
} from "../components/forms/fields.tsx";
import { BotCheckAndSubmit } from "../components/forms/submit-button.tsx";
import { useGuestForm } from "../components/forms/use-guest-form.ts";
import { toast } from "../hooks/use-toast.ts";
import { useLocalToday } from "../hooks/use-local-today.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  const { language, botCheck, bookingHorizonMonths } = context.get(requestInfoContext);
  try {
    const property = await getProperty(context.get(depsContext), {
      idOrSlug: params.idOrSlug,
      language,
    });
    const lastDate = lastBookableDate(bookingHorizonMonths);
    return {
      property: {
        id: property.id,
        slug: property.slug,
        name: property.name,
        location: property.location,
        bedrooms: property.bedrooms,
        image: property.images[0] ?? null,
      },
      title: translate(language, "meta.pageTitle", {
        title: translate(language, "forms.propertyBooking.title", { name: property.name }),
      }),
      description: translate(language, "forms.propertyBooking.metaDescription", {
        name: property.name,
        location: property.location,
      }),
      botCheck,
      bookingHorizonMonths,
      today: utcToday(),
      lastDate,
      lastDateLabel: formatDate(lastDate, language),
    };
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw data(
        { title: translate(language, "forms.propertyBooking.notFoundTitle") },
        { status: 404 },
      );
    }
    throw error;
  }
}

export const meta: Route.MetaFunction = (args) => {
  if (!args.loaderData) {
    const title = isRouteErrorResponse(args.error)
      ? (args.error.data as { title?: string })?.title
      : undefined;
    return [{ title: title ?? "" }, { name: "robots", content: "noindex" }];
  }
  return pageMeta(args, {
    title: args.loaderData.title,
    description: args.loaderData.description,
    path: `/booking/${args.loaderData.property.slug}`,
  });
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

export default function BookingPage({ loaderData }: Route.ComponentProps) {
  const { property, botCheck: botCheckConfig, lastDate, lastDateLabel } = loaderData;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = useLocalToday(loaderData.today);
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
  const { form, onSubmit, submitting, summary, token, setToken, botCheck, labels } = useGuestForm<
    Required<PropertyBookingInput>
  >({
    loadSchema: () =>
      import("../../domain/requests/property-booking.schema.ts").then((module) =>
        module.propertyBookingSchema(loaderData.bookingHorizonMonths),
      ),
    endpoint: "/api/bookings",
    fields: FIELDS,
    defaultValues,
    failure: { fallback: t("forms.propertyBooking.failed") },
    onSuccess() {
      toast({
        title: t("forms.propertyBooking.successTitle"),
        description: t("forms.propertyBooking.successText"),
      });
      form.reset(defaultValues);
      navigate(`/property/${property.slug}`);
    },
  });
  const dateMode = form.watch("dateMode");
  const startDate = form.watch("startDate");
  const options = useOptionList();

  return (
    <div id="top" className="mx-auto max-w-5xl scroll-mt-24 px-4 py-10 sm:px-6 lg:py-14">
      <BackLink to={`/property/${property.slug}`} label={t("forms.propertyBooking.back")} />
      <header className="mt-8 grid items-center gap-8 md:grid-cols-[1fr_320px]">
        <div className="flex flex-col gap-4">
          <h1 className="text-heritage text-5xl font-semibold sm:text-6xl">
            {t("forms.propertyBooking.title", { name: property.name })}
          </h1>
          <div className="text-muted flex flex-wrap items-center gap-x-6 gap-y-2">
            <p className="flex items-center gap-2">
              <MapPin aria-hidden className="text-gold size-4" />
              {property.location}
            </p>
            <p className="flex items-center gap-2">
              <BedDouble aria-hidden className="text-gold size-4" />
              {t("forms.propertyBooking.bedrooms", { count: property.bedrooms })}
            </p>
          </div>
        </div>
        {property.image && (
          <ResponsiveImage
            image={property.image}
            alt={property.name}
            sizes="(min-width: 768px) 320px, 100vw"
            isEager
            isHighPriority
            className="aspect-[4/3] w-full rounded-sm object-cover"
          />
        )}
      </header>

      <FormProvider {...form}>
        <form
          noValidate
          onSubmit={onSubmit}
          className="border-gold/30 bg-paper shadow-card mt-10 grid gap-6 rounded-sm border p-6 sm:grid-cols-2 sm:p-10"
        >
          <p className="border-gold/40 bg-ivory text-ink flex gap-3 rounded-sm border p-4 text-sm sm:col-span-2">
            <Info aria-hidden className="text-gold mt-0.5 size-5 shrink-0" />
            {t("forms.propertyBooking.notice")}
          </p>
          {summary.length > 0 && (
            <div className="sm:col-span-2">
              <ErrorSummary errors={summary} />
            </div>
          )}
          <TextField
            name="firstName"
            label={labels.firstName!}
            required
            autoComplete="given-name"
          />
          <TextField name="lastName" label={labels.lastName!} required autoComplete="family-name" />
          <TextField
            name="email"
            label={labels.email!}
            required
            type="email"
            autoComplete="email"
          />
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
          <BotCheckAndSubmit
            config={botCheckConfig}
            botCheck={botCheck}
            setToken={setToken}
            submitting={submitting}
            token={token}
            className="sm:col-span-2"
          />
        </form>
      </FormProvider>
    </div>
  );
}

export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <EstateRouteError
      notFoundTitle={t("forms.propertyBooking.notFoundTitle")}
      notFoundText={t("forms.propertyBooking.notFoundText")}
      backLabel={t("forms.propertyBooking.notFoundBack")}
    />
  );
}
