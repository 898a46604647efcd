import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { type EstateCalendarAnswer, getOwnerCalendar } from "#domain/calendar/calendar.contract.ts";
import { addMonths, isIsoDate, utcToday } from "#domain/requests/dates.ts";
import { listOwnerCalendarFeeds } from "#domain/calendar/feeds.contract.ts";
import { callApi } from "#app/api-client.ts";
import { type CalendarFeed, ownerFeedsApi } from "../calendar/feeds-api.ts";
import { FeedsPanel } from "../calendar/feeds-panel.tsx";
import {
  CALENDAR_MONTHS,
  calendarWindowAround,
  EstateCalendarView,
} from "../calendar/estate-calendar-view.tsx";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";

/** The last answer read, for the key (estate, window, language, version) it was read for. */
type Loaded =
  | { key: string; ok: true; calendar: EstateCalendarAnswer }
  | { key: string; ok: false; message: string | null };

interface Shown {
  calendar: EstateCalendarAnswer;
  feeds: CalendarFeed[];
  syncMinutes: number;
}

/**
 * The owner dashboard's Calendar tab: the estate's calendar as its owner sees it (no guest's
 * name or contact), their blocks, the export URL and the imported feeds. Read through the
 * owner's call when the tab is first opened (a staff admin on the dashboard reads it the same
 * way); `?from=YYYY-MM-DD` opens it around a date.
 */
export function CalendarTab({ propertyId, isActive }: { propertyId: number; isActive: boolean }) {
  const { t, i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const [from, setFrom] = useState(() => {
    const asked = searchParams.get("from");
    return calendarWindowAround(asked && isIsoDate(asked) ? asked : null, utcToday()).from;
  });
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const [version, setVersion] = useState(0);
  // Read when the tab is first opened (it stays mounted, hidden, afterwards).
  const [opened, setOpened] = useState(isActive);
  if (isActive && !opened) setOpened(true);
  const language = i18n.language;
  const key = `${propertyId}|${from}|${language}|${version}`;

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    const options = { language, signal: controller.signal };
    void Promise.all([
      callApi(
        getOwnerCalendar,
        { query: { propertyId, from, to: addMonths(from, CALENDAR_MONTHS) } },
        options,
      ),
      callApi(listOwnerCalendarFeeds, { query: { propertyId } }, options),
    ]).then(([answer, feeds]) => {
      if (controller.signal.aborted) return;
      if (answer.ok && feeds.ok) {
        setLoaded({ key, ok: true, calendar: answer.data });
        setShown({
          calendar: answer.data,
          feeds: feeds.data.feeds,
          syncMinutes: feeds.data.syncMinutes,
        });
      } else setLoaded({ key, ok: false, message: answer.message ?? feeds.message });
    });
    return () => controller.abort();
  }, [opened, key, propertyId, from, language]);

  const isLoading = opened && loaded?.key !== key;
  const reload = () => setVersion((value) => value + 1);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6" data-testid="owner-calendar">
      {!isLoading && loaded && !loaded.ok && (
        <Alert>
          <AlertTitle>{t("owner.calendar.loadFailed")}</AlertTitle>
          {loaded.message && <p className="mt-1">{loaded.message}</p>}
          <Button type="button" variant="outline" size="sm" className="mt-3" onClick={reload}>
            {t("owner.calendar.retry")}
          </Button>
        </Alert>
      )}
      {shown ? (
        <EstateCalendarView
          calendar={shown.calendar}
          target={{ area: "owner", propertyId }}
          busy={isLoading}
          onNavigate={setFrom}
          onChanged={reload}
          feeds={
            <FeedsPanel
              icalUrl={shown.calendar.icalUrl}
              feeds={shown.feeds}
              api={ownerFeedsApi(propertyId, language)}
              syncMinutes={shown.syncMinutes}
              onChanged={reload}
            />
          }
        />
      ) : (
        isLoading && (
          <p className="text-muted" role="status">
            {t("owner.calendar.loading")}
          </p>
        )
      )}
    </div>
  );
}
