import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigation, useRevalidator } from "react-router";
import { ArrowLeftToLine, ArrowRight, Download } from "lucide-react";
import { DomainError, ValidationError } from "../../../domain/errors.ts";
import { REQUEST_KINDS, type RequestKind, statusesOf } from "../../../domain/requests/options.ts";
import type { InboxPage } from "../../../domain/staff/inbox.ts";
import {
  type InboxFilter,
  InboxFilterSchema,
  inboxFilterToSearch,
} from "../../../domain/staff/inbox.schema.ts";
import type { Route } from "./+types/booking-requests";
import { requestInfoContext } from "../../context.ts";
import type { DetailsTarget } from "../../components/staff/request-details-dialog.tsx";
import { InboxFilters } from "../../components/staff/inbox-filters.tsx";
import { KindNav, StatusCards } from "../../components/staff/inbox-nav.tsx";
import { InboxTable } from "../../components/staff/inbox-table.tsx";
import { OverviewPanel } from "../../components/staff/overview-panel.tsx";
import { COLLECTION_PATHS } from "../../components/staff/staff-api.ts";
import { StaffPageHeader } from "../../components/staff/staff-page.tsx";
import {
  type StatusChange,
  StatusChangeDialog,
} from "../../components/staff/status-change-dialog.tsx";
import { buttonVariants } from "../../components/ui/button.tsx";
import { toInboxRow } from "./inbox-rows.server.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

const PATH = "/admin/booking-requests";

/**
 * The filter of this view from the address. A hand-edited value that breaks the schema is left
 * out (with a notice) rather than failing the page.
 */
function readFilter(params: URLSearchParams): { filter: InboxFilter; problems: string[] } {
  const raw: Record<string, string> = Object.fromEntries(params);
  delete raw.lang;
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
  let { filter, problems } = readFilter(new URL(request.url).searchParams);
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
  const [counts, overview, properties] = await Promise.all([
    staff.countInboxByStatus(kind),
    staff.getInboxOverview(),
    kind === "property_booking" ? staff.listPropertyChoices(language) : null,
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
      sort: filter.sort,
    },
    isFirstPage: !filter.after,
    isFiltered: Boolean(
      filter.status ||
      filter.q ||
      filter.from ||
      filter.to ||
      filter.propertyId ||
      filter.memberStatus,
    ),
    problems,
    rows: page.items.map((item) => toInboxRow(item, language)),
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
      csv: `${COLLECTION_PATHS[kind]}/export.csv${exportSearch ? `?${exportSearch}` : ""}`,
      oldestNew: hrefOf({ kind, status: "New", sort: "oldest" }),
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

/** The details dialog and the summary it draws load with the first 'View Details'. */
const RequestDetailsDialog = lazy(
  () => import("../../components/staff/request-details-dialog.tsx"),
);

export default function BookingRequests({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [change, setChange] = useState<StatusChange | null>(null);
  const [details, setDetails] = useState<DetailsTarget | null>(null);
  const [hasOpenedDetails, setHasOpenedDetails] = useState(false);
  const { kind, rows, links, filter } = loaderData;
  const statuses = statusesOf(kind);
  const loading =
    (navigation.state === "loading" && navigation.location.pathname === PATH) ||
    revalidator.state === "loading";

  return (
    <div className="mx-auto grid max-w-[100rem] grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
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
      <OverviewPanel overview={loaderData.overview} oldestNewHref={links.oldestNew} />
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
          <div
            role="alert"
            className="rounded-sm border border-l-4 border-orange-300 border-l-orange-500 bg-orange-50 px-4 py-3 text-sm text-orange-950"
          >
            <p className="font-semibold">{t("staff.filters.invalid")}</p>
            <ul className="mt-1 list-disc pl-5">
              {[...new Set(loaderData.problems)].map((problem) => (
                <li key={problem}>{t(problem)}</li>
              ))}
            </ul>
          </div>
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
            onView={(row) => {
              setHasOpenedDetails(true);
              setDetails({ kind: row.kind, id: row.id, reference: row.reference, name: row.name });
            }}
          />
        )}
        {(links.next || links.first) && (
          <nav
            aria-label={t("staff.inbox.pagination")}
            className="flex flex-wrap items-center justify-between gap-4"
          >
            <p className="text-muted text-sm">
              {t("staff.inbox.shown", { shown: rows.length, total: loaderData.total })}
            </p>
            <div className="flex gap-3">
              {links.first && (
                <Link
                  to={links.first}
                  className={buttonVariants({ variant: "ghost", size: "sm" })}
                  preventScrollReset
                >
                  <ArrowLeftToLine aria-hidden className="size-4" />
                  {t("staff.inbox.firstPage")}
                </Link>
              )}
              {links.next && (
                <Link
                  to={links.next}
                  rel="next"
                  className={buttonVariants({ variant: "outline", size: "sm" })}
                >
                  {t("staff.inbox.nextPage")}
                  <ArrowRight aria-hidden className="size-4" />
                </Link>
              )}
            </div>
          </nav>
        )}
      </section>
      <StatusChangeDialog
        change={change}
        onClose={() => setChange(null)}
        onSettled={() => void revalidator.revalidate()}
      />
      {hasOpenedDetails && (
        <Suspense fallback={null}>
          <RequestDetailsDialog
            target={details}
            onClose={() => setDetails(null)}
            onChanged={() => void revalidator.revalidate()}
          />
        </Suspense>
      )}
    </div>
  );
}
