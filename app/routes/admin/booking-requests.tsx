import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigation, useRevalidator } from "react-router";
import { Download } from "lucide-react";
import { DomainError, ValidationError } from "#domain/errors.ts";
import { REQUEST_KINDS, type RequestKind, statusesOf } from "#domain/requests/options.ts";
import type { InboxPage } from "#domain/staff/inbox.ts";
import {
  type InboxFilter,
  InboxFilterSchema,
  inboxFilterToSearch,
} from "#domain/staff/inbox.schema.ts";
import type { Route } from "./+types/booking-requests";
import { requestInfoContext } from "#app/context.ts";
import { detailsPathOf, INBOX_PATH } from "#app/components/staff/details-path.ts";
import { InboxFilters } from "#app/components/staff/inbox-filters.tsx";
import { KindNav, StatusCards } from "#app/components/staff/inbox-nav.tsx";
import { InboxTable } from "#app/components/staff/inbox-table.tsx";
import { OverviewPanel } from "#app/components/staff/overview-panel.tsx";
import { COLLECTION_OPERATIONS } from "#domain/staff/inbox.contract.ts";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import {
  type StatusChange,
  StatusChangeDialog,
} from "#app/components/staff/status-change-dialog.tsx";
import { parseLocalDate } from "#app/components/staff/local-date.ts";
import { Alert, AlertList, AlertTitle } from "#app/components/ui/alert.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { KeysetPager } from "#app/components/ui/pager.tsx";
import { toInboxRow } from "./inbox-rows.server.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

const PATH = INBOX_PATH;

/**
 * The filter of this view from the address. A hand-edited value that breaks the schema is left
 * out (with a notice) rather than failing the page. The date fields are typed in the page's
 * language (`local-date.ts`): they are read in it, or as ISO dates.
 */
function readFilter(
  params: URLSearchParams,
  language: string,
): { filter: InboxFilter; problems: string[] } {
  const raw: Record<string, string> = Object.fromEntries(params);
  delete raw.lang;
  for (const name of ["from", "to"] as const)
    if (raw[name] !== undefined) raw[name] = parseLocalDate(raw[name], language) ?? raw[name];
  const first = InboxFilterSchema.safeParse(raw);
  if (first.success) return { filter: first.data, problems: [] };
  const problems = first.error.issues.map((issue) => issue.message);
  for (const issue of first.error.issues) delete raw[String(issue.path[0])];
  const second = InboxFilterSchema.safeParse(raw);
  return { filter: second.success ? second.data : InboxFilterSchema.parse({}), problems };
}

function hrefOf(filter: Partial<InboxFilter>): string {
  const search = inboxFilterToSearch(filter).toString();
  return search ? `${PATH}?${search}` : PATH;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const { language } = context.get(requestInfoContext);
  let { filter, problems } = readFilter(new URL(request.url).searchParams, language);
  let page: InboxPage;
  try {
    page = await staff.listInbox(filter);
  } catch (error) {
    // A status of another kind, or a page link that no longer works: the first page without it.
    if (
      !(error instanceof DomainError) ||
      (error.code !== "validation" && error.code !== "invalid")
    )
      throw error;
    problems = [
      ...problems,
      ...(error instanceof ValidationError
        ? error.issues.map((issue) => issue.message)
        : [error.messageKey]),
    ];
    filter = { ...filter, status: undefined, after: undefined };
    page = await staff.listInbox(filter);
  }
  const { kind } = filter;
  const [counts, overview, properties, estateNames] = await Promise.all([
    staff.countInboxByStatus(kind),
    staff.getInboxOverview(),
    kind === "property_booking" ? staff.listBookedEstateChoices(language, filter.propertyId) : null,
    staff.nameEstates(
      language,
      page.items.map((item) => item.propertyId),
    ),
  ]);
  const firstPage = { ...filter, after: undefined };
  // The export takes the same filters (not the page): its own kind is in its path.
  const exportSearch = inboxFilterToSearch({
    ...firstPage,
    kind: undefined,
    limit: undefined,
  }).toString();
  return {
    title: staffTitle(context, "staff.inbox.title"),
    kind,
    filter: {
      kind,
      status: filter.status,
      q: filter.q,
      from: filter.from,
      to: filter.to,
      propertyId: filter.propertyId,
      memberStatus: filter.memberStatus,
      money: filter.money,
      sort: filter.sort,
    },
    isFirstPage: !filter.after,
    isFiltered: Boolean(
      filter.status ||
      filter.q ||
      filter.from ||
      filter.to ||
      filter.propertyId ||
      filter.memberStatus ||
      filter.money,
    ),
    problems,
    rows: page.items.map((item) => toInboxRow(item, language, estateNames)),
    total: page.total,
    counts,
    overview,
    properties,
    links: {
      kinds: Object.fromEntries(
        REQUEST_KINDS.map((item) => [item, hrefOf({ kind: item })]),
      ) as Record<RequestKind, string>,
      all: hrefOf({ kind }),
      statuses: Object.fromEntries(
        statusesOf(kind).map((status) => [status, hrefOf({ kind, status })]),
      ),
      next: page.nextCursor ? hrefOf({ ...filter, after: page.nextCursor }) : null,
      first: filter.after ? hrefOf(firstPage) : null,
      csv: `${COLLECTION_OPERATIONS[kind].exportCsv.path}${exportSearch ? `?${exportSearch}` : ""}`,
      oldestNew: hrefOf({ kind, status: "New", sort: "oldest" }),
      dueSoonest: hrefOf({ kind, sort: "due" }),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

export default function BookingRequests({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const { search } = useLocation();
  const [change, setChange] = useState<StatusChange | null>(null);
  const { kind, rows, links, filter } = loaderData;
  const statuses = statusesOf(kind);
  const loading =
    (navigation.state === "loading" && navigation.location.pathname === PATH) ||
    revalidator.state === "loading";

  return (
    <div className="mx-auto grid max-w-[100rem] grid-cols-[minmax(0,1fr)] gap-8 px-4 py-8 sm:px-6 lg:py-10">
      <StaffPageHeader
        title={t("staff.inbox.title")}
        actions={
          <a
            href={links.csv}
            download
            className={buttonVariants({ variant: "outline", size: "md" })}
            data-testid="download-csv"
          >
            <Download aria-hidden className="size-4" />
            {t("staff.inbox.downloadCsv")}
          </a>
        }
      />
      {/* The counts and the requests first (the work of the day); the overview below them. */}
      <section aria-labelledby="inbox-requests" className="grid grid-cols-[minmax(0,1fr)] gap-5">
        <h2 id="inbox-requests" className="sr-only">
          {t(`staff.inbox.kinds.${kind}`)}
        </h2>
        <KindNav kind={kind} hrefs={links.kinds} />
        <StatusCards
          statuses={statuses}
          counts={loaderData.counts}
          active={filter.status as (typeof statuses)[number] | undefined}
          hrefs={{ all: links.all, statuses: links.statuses }}
        />
        <InboxFilters
          key={JSON.stringify(filter)}
          filter={filter}
          statuses={statuses}
          properties={loaderData.properties}
          resetHref={links.all}
        />
        {loaderData.problems.length > 0 && (
          <Alert variant="warning">
            <AlertTitle>{t("staff.filters.invalid")}</AlertTitle>
            <AlertList items={loaderData.problems.map((problem) => t(problem))} />
          </Alert>
        )}
        <p role="status" className="text-muted min-h-5 text-sm" data-testid="inbox-loading">
          {loading ? t("staff.inbox.loading") : ""}
        </p>
        {rows.length === 0 ? (
          <div
            data-testid="inbox-empty"
            className="border-gold/30 bg-paper rounded-sm border px-6 py-12 text-center"
          >
            <p className="text-ink font-medium">
              {loaderData.isFiltered || !loaderData.isFirstPage
                ? t("staff.inbox.emptyFiltered")
                : t("staff.inbox.empty", { kind: t(`staff.inbox.kinds.${kind}`) })}
            </p>
            {(loaderData.isFiltered || !loaderData.isFirstPage) && (
              <Link
                to={links.all}
                className="text-heritage mt-3 inline-block text-sm underline underline-offset-4"
              >
                {t("staff.filters.reset")}
              </Link>
            )}
          </div>
        ) : (
          <InboxTable
            kind={kind}
            rows={rows}
            busy={loading}
            caption={t("staff.inbox.caption", {
              kind: t(`staff.inbox.kinds.${kind}`),
              count: loaderData.total,
            })}
            onPickStatus={(row, to) =>
              setChange({
                target: {
                  kind: row.kind,
                  id: row.id,
                  reference: row.reference,
                  name: row.name,
                  status: row.status,
                  version: row.version,
                },
                to,
              })
            }
            detailsHref={(row) => detailsPathOf(row.kind, row.id, search)}
          />
        )}
        <KeysetPager
          label={t("staff.inbox.pagination")}
          summary={t("staff.inbox.shown", { shown: rows.length, total: loaderData.total })}
          firstHref={links.first}
          nextHref={links.next}
        />
      </section>
      <OverviewPanel
        overview={loaderData.overview}
        oldestNewHref={links.oldestNew}
        dueSoonestHref={links.dueSoonest}
      />
      <StatusChangeDialog
        change={change}
        onClose={() => setChange(null)}
        onSettled={() => void revalidator.revalidate()}
      />
      {/* A request's details (routes/admin/request-details.tsx), over the inbox. */}
      <Outlet />
    </div>
  );
}

/** The inbox could not be read ('Failed to fetch booking requests'). */
export function ErrorBoundary() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-10 sm:px-6">
      <StaffPageHeader title={t("staff.inbox.title")} />
      <Alert data-testid="inbox-failed">
        <AlertTitle>{t("staff.inbox.fetchFailed")}</AlertTitle>
        <p className="mt-1">{t("staff.inbox.fetchFailedText")}</p>
      </Alert>
      <Link
        to={PATH}
        reloadDocument
        className="text-heritage justify-self-start font-medium underline underline-offset-4"
      >
        {t("staff.inbox.tryAgain")}
      </Link>
    </div>
  );
}
