import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Download, Search } from "lucide-react";
import type { Route } from "./+types/security";
import {
  isFailureEventType,
  SECURITY_EVENT_GROUPS,
  SECURITY_EVENT_OUTCOMES,
  SecurityEventPageQuerySchema,
  securityFilterToSearch,
  type SecurityEventFilter,
  type SecurityEventItem,
} from "#domain/security/security-log.contract.ts";
import { SECURITY_EVENT_TYPES } from "#domain/security/security-log.ts";
import { translate } from "#i18n/translate.ts";
import { requestInfoContext } from "#app/context.ts";
import { formatMoment } from "#app/components/staff/format.ts";
import { StaffPageHeader, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Alert, AlertList, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { cn } from "#app/components/ui/cn.ts";
import { CONTROL_CLASS, Field } from "#app/components/ui/field.tsx";
import { KeysetPager } from "#app/components/ui/pager.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

const PAGE_PATH = "/admin/security";
const EXPORT_PATH = "/api/admin/security-events/export.csv";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const { language } = context.get(requestInfoContext);
  const search = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = SecurityEventPageQuerySchema.safeParse(search);
  // A filter that breaks its schema shows why, and the log unfiltered.
  const query = parsed.success ? parsed.data : SecurityEventPageQuerySchema.parse({});
  const page = await staff.listSecurityEvents(query);
  const { cursor, limit: _limit, ...filter } = query;
  const searchOf = (extra: { cursor?: number } = {}) => {
    const text = securityFilterToSearch({ ...filter, ...extra }).toString();
    return text ? `?${text}` : "";
  };
  return {
    title: staffTitle(context, "staff.securityLog.title"),
    filter: filter as SecurityEventFilter,
    exportHref: `${EXPORT_PATH}${searchOf()}`,
    firstHref: cursor ? `${PAGE_PATH}${searchOf()}` : null,
    nextHref: page.nextCursor ? `${PAGE_PATH}${searchOf({ cursor: page.nextCursor })}` : null,
    problems: parsed.success
      ? []
      : parsed.error.issues.map((issue) => translate(language, issue.message)),
    events: page.events.map((event) => ({ ...event, failure: isFailureEventType(event.type) })),
    groups: SECURITY_EVENT_GROUPS,
    types: [...SECURITY_EVENT_TYPES],
    outcomes: [...SECURITY_EVENT_OUTCOMES],
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

/** A user agent cut to what a column can show; the whole one is in the cell's title. */
const shortAgent = (agent: string) => (agent.length > 48 ? `${agent.slice(0, 47)}…` : agent);

/** `data` as "key: value" lines (values that are not text as JSON). */
const detailsOf = (data: Record<string, unknown>) =>
  Object.entries(data).map(
    ([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`,
  );

/**
 * The security log: who signed in or failed to, second factors, account changes,
 * refused calls, exports, owner codes, feed and webhook changes. Filters live in the URL (a
 * GET form); the CSV link exports what the filter selects. Read-only: nothing here changes it.
 */
export default function SecurityLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const hydrated = useHydrated();
  const { filter, exportHref, firstHref, nextHref, events, groups, types, outcomes, problems } =
    loaderData;
  const typeLabel = (type: string) => t(`staff.securityLog.types.${type}`, { defaultValue: type });
  // The server renders UTC (the same on both sides); once hydrated, the viewer's own zone.
  const when = (at: string) =>
    hydrated
      ? new Intl.DateTimeFormat(language, {
          year: "numeric",
          month: "short",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          second: "2-digit",
          hourCycle: "h23",
          timeZoneName: "short",
        }).format(new Date(at))
      : formatMoment(at, language);
  const who = (event: SecurityEventItem) =>
    event.actorEmail ?? t(`staff.securityLog.actors.${event.actorKind}`);

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader
        title={t("staff.securityLog.title")}
        description={t("staff.securityLog.intro")}
        actions={
          <a
            href={exportHref}
            download
            className={buttonVariants({ variant: "outline" })}
            data-testid="security-export"
          >
            <Download aria-hidden className="size-4" />
            {t("staff.securityLog.export")}
          </a>
        }
      />

      {problems.length > 0 && (
        <Alert variant="error">
          <AlertTitle>{t("staff.securityLog.filterInvalid")}</AlertTitle>
          <AlertList items={problems} />
        </Alert>
      )}

      <Form
        method="get"
        action={PAGE_PATH}
        role="search"
        aria-label={t("staff.securityLog.filters")}
        preventScrollReset
        className="border-gold/40 bg-paper/70 grid gap-4 rounded-sm border p-4 sm:p-5"
      >
        <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Field label={t("staff.securityLog.type")} labelVariant="compact">
            {(control) => (
              <select
                {...control}
                name="type"
                defaultValue={filter.type ?? ""}
                className={CONTROL_CLASS}
              >
                <option value="">{t("staff.securityLog.anyType")}</option>
                <optgroup label={t("staff.securityLog.groupsLabel")}>
                  {groups.map((group) => (
                    <option key={group} value={group}>
                      {t(`staff.securityLog.groups.${group}`, { defaultValue: group })}
                    </option>
                  ))}
                </optgroup>
                <optgroup label={t("staff.securityLog.typesLabel")}>
                  {types.map((type) => (
                    <option key={type} value={type}>
                      {typeLabel(type)}
                    </option>
                  ))}
                </optgroup>
              </select>
            )}
          </Field>
          <Field label={t("staff.securityLog.email")} labelVariant="compact">
            {(control) => (
              <input
                {...control}
                type="email"
                name="email"
                autoComplete="off"
                defaultValue={filter.email ?? ""}
                maxLength={320}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          <Field label={t("staff.securityLog.ip")} labelVariant="compact">
            {(control) => (
              <input
                {...control}
                type="text"
                name="ip"
                autoComplete="off"
                defaultValue={filter.ip ?? ""}
                maxLength={64}
                className={CONTROL_CLASS}
              />
            )}
          </Field>
          {(["from", "to"] as const).map((name) => (
            <Field key={name} label={t(`staff.securityLog.${name}`)} labelVariant="compact">
              {(control) => (
                <input
                  {...control}
                  type="date"
                  name={name}
                  defaultValue={filter[name] ?? ""}
                  className={CONTROL_CLASS}
                />
              )}
            </Field>
          ))}
          <Field label={t("staff.securityLog.outcome")} labelVariant="compact">
            {(control) => (
              <select
                {...control}
                name="outcome"
                defaultValue={filter.outcome ?? ""}
                className={CONTROL_CLASS}
              >
                <option value="">{t("staff.securityLog.anyOutcome")}</option>
                {outcomes.map((outcome) => (
                  <option key={outcome} value={outcome}>
                    {t(`staff.securityLog.outcomes.${outcome}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit">
            <Search aria-hidden className="size-4" />
            {t("staff.securityLog.apply")}
          </Button>
          <Link to={PAGE_PATH} className={buttonVariants({ variant: "ghost" })}>
            {t("staff.securityLog.reset")}
          </Link>
        </div>
      </Form>

      {events.length === 0 ? (
        <p className="text-muted" data-testid="security-empty">
          {t("staff.securityLog.empty")}
        </p>
      ) : (
        <Table layout="stack" data-testid="security-events">
          <TableCaption layout="stack">{t("staff.securityLog.caption")}</TableCaption>
          <TableHeader layout="stack">
            <tr>
              {(["when", "what", "who", "ip", "userAgent", "details"] as const).map((column) => (
                <TableHead key={column} scope="col">
                  {t(`staff.securityLog.columns.${column}`)}
                </TableHead>
              ))}
            </tr>
          </TableHeader>
          <TableBody layout="stack">
            {events.map((event) => (
              <TableRow layout="stack" key={event.id} data-type={event.type}>
                <TableCell layout="stack" label={t("staff.securityLog.columns.when")} pinned>
                  <time dateTime={event.at} className="xl:whitespace-nowrap">
                    {when(event.at)}
                  </time>
                </TableCell>
                <TableCell
                  as="th"
                  scope="row"
                  layout="stack"
                  label={t("staff.securityLog.columns.what")}
                  pinned
                  className={cn("text-left font-semibold", event.failure && "text-burgundy")}
                >
                  {typeLabel(event.type)}
                </TableCell>
                <TableCell
                  layout="stack"
                  label={t("staff.securityLog.columns.who")}
                  className="break-all"
                >
                  {who(event)}
                </TableCell>
                <TableCell layout="stack" label={t("staff.securityLog.columns.ip")}>
                  {event.ip ?? ""}
                </TableCell>
                <TableCell
                  layout="stack"
                  label={t("staff.securityLog.columns.userAgent")}
                  title={event.userAgent ?? undefined}
                  className="break-all"
                >
                  {event.userAgent ? shortAgent(event.userAgent) : ""}
                </TableCell>
                <TableCell layout="stack" label={t("staff.securityLog.columns.details")}>
                  <ul className="grid gap-0.5 text-xs break-all">
                    {detailsOf(event.data).map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <KeysetPager label={t("staff.securityLog.pages")} firstHref={firstHref} nextHref={nextHref} />
    </div>
  );
}
