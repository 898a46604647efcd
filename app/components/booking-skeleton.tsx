import { useTranslation } from "react-i18next";

/** Shown while the next booking page loads (client navigation). */
export function BookingPageSkeleton() {
  const { t } = useTranslation();
  return (
    <div
      className="mx-auto max-w-5xl animate-pulse px-4 py-10 sm:px-6 lg:py-14"
      role="status"
      aria-live="polite"
      data-testid="booking-skeleton"
    >
      <span className="sr-only">{t("forms.propertyBooking.loading")}</span>
      <div className="h-4 w-40 rounded-sm bg-stone-200" />
      <div className="mt-8 grid gap-8 md:grid-cols-[1fr_320px]">
        <div className="flex flex-col gap-4">
          <div className="h-14 w-3/4 rounded-sm bg-stone-200" />
          <div className="h-5 w-1/2 rounded-sm bg-stone-200" />
        </div>
        <div className="aspect-[4/3] w-full rounded-sm bg-stone-200" />
      </div>
      <div className="mt-10 h-96 rounded-sm bg-stone-100" />
    </div>
  );
}
