import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { ArrowLeftToLine, ArrowRight, Search } from "lucide-react";
import {
  EstateSearchSchema,
  estateSearchToParams,
  type EstateSearch,
} from "../../../domain/staff/estates.schema.ts";
import type { Route } from "./+types/estates";
import { requestInfoContext } from "../../context.ts";
import { formatDay } from "../../components/staff/format.ts";
import { StaffPageHeader } from "../../components/staff/staff-page.tsx";
import { Button, buttonVariants } from "../../components/ui/button.tsx";
import { cn } from "../../components/ui/cn.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

const PATH = "/admin/estates";

function hrefOf(search: EstateSearch): string {
  const params = estateSearchToParams(search).toString();
  return params ? `${PATH}?${params}` : PATH;
}

/** The search from the address; a hand-edited value that breaks the schema is left out. */
function readSearch(params: URLSearchParams): { search: EstateSearch; problems: string[] } {
  const raw: Record<string, string> = {
    q: params.get("q") ?? "",
    after: params.get("after") ?? "",
  };
  const first = EstateSearchSchema.safeParse(raw);
  if (first.success) return { search: first.data, problems: [] };
  for (const issue of first.error.issues) delete raw[String(issue.path[0])];
  const second = EstateSearchSchema.safeParse(raw);
  return {
    search: second.success ? second.data : {},
    problems: first.error.issues.map((issue) => issue.message),
  };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const { language } = context.get(requestInfoContext);
  const { search, problems } = readSearch(new URL(request.url).searchParams);
  const page = await staff.listEstates({ language, q: search.q, after: search.after });
  return {
    title: staffTitle(context, "staff.estates.title"),
    q: search.q ?? "",
    problems,
    isFirstPage: search.after === undefined,
    estates: page.estates,
    links: {
      next: page.nextAfter !== null ? hrefOf({ q: search.q, after: page.nextAfter }) : null,
      first: search.after !== undefined ? hrefOf({ q: search.q }) : null,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

const TH =
  "border-ink/15 text-ink border-b px-3 py-3 text-left text-xs font-semibold tracking-wide uppercase";
const TD = "border-ink/10 text-ink border-b px-3 py-3 align-top";
const FIELD =
  "mt-1.5 block w-full rounded-sm border border-ink/25 bg-paper px-3 py-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold";

/**
 * The estates for support: a search by name (any language) or owner email, kept in the
 * address, and 'Next page' links on the estate id. Each estate opens its support page.
 */
export default function Estates({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const integer = new Intl.NumberFormat(i18n.language);
  const { estates, links, q } = loaderData;
  const loading = navigation.state === "loading" && navigation.location.pathname === PATH;

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.estates.title")} description={t("staff.estates.intro")} />
      <Form
        method="get"
        action={PATH}
        role="search"
        aria-label={t("staff.estates.searchLabel")}
        className="border-gold/40 bg-paper/70 flex flex-wrap items-end gap-4 rounded-sm border p-4 sm:p-5"
      >
        <label className="block min-w-0 flex-1 basis-72">
          <span className="text-muted text-xs font-semibold tracking-[0.08em] uppercase">
            {t("staff.estates.searchLabel")}
          </span>
          <span className="relative block">
            <Search
              aria-hidden
              className="text-muted pointer-events-none absolute top-1/2 left-3 mt-0.75 size-4 -translate-y-1/2"
            />
            <input
              key={q}
              type="search"
              name="q"
              defaultValue={q}
              maxLength={100}
              placeholder={t("staff.estates.searchPlaceholder")}
              className={`${FIELD} pl-9`}
            />
          </span>
        </label>
        <div className="flex items-center gap-4">
          {q && (
            <Link
              to={PATH}
              className="text-heritage text-sm whitespace-nowrap underline-offset-4 hover:underline"
            >
              {t("staff.estates.clearSearch")}
            </Link>
          )}
          <Button type="submit">{t("staff.estates.searchSubmit")}</Button>
        </div>
      </Form>
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
      <p role="status" className="text-muted min-h-5 text-sm">
        {loading ? t("staff.estates.loading") : ""}
      </p>
      {estates.length === 0 ? (
        <div
          data-testid="estates-empty"
          className="border-gold/30 bg-paper rounded-sm border px-6 py-12 text-center"
        >
          <p className="text-ink font-medium">
            {!loaderData.isFirstPage
              ? t("staff.estates.emptyPage")
              : q
                ? t("staff.estates.emptySearch", { q })
                : t("staff.estates.empty")}
          </p>
        </div>
      ) : (
        <div
          role="region"
          aria-labelledby="estates-caption"
          tabIndex={0}
          className="border-gold/30 bg-paper focus-visible:outline-gold overflow-x-auto rounded-sm border focus-visible:outline-2"
        >
          <table
            className={cn("w-full border-collapse text-sm", loading && "opacity-60")}
            aria-busy={loading || undefined}
            data-testid="estates-table"
          >
            <caption id="estates-caption" className="text-muted px-3 pt-3 pb-1 text-left text-sm">
              {q ? t("staff.estates.captionSearch", { q }) : t("staff.estates.caption")}
            </caption>
            <thead>
              <tr>
                <th scope="col" className={TH}>
                  {t("staff.estates.columns.estate")}
                </th>
                <th scope="col" className={TH}>
                  {t("staff.estates.columns.location")}
                </th>
                <th scope="col" className={TH}>
                  {t("staff.estates.columns.ownerEmail")}
                </th>
                <th scope="col" className={TH}>
                  {t("staff.estates.columns.claimed")}
                </th>
                <th scope="col" className={cn(TH, "text-right")}>
                  {t("staff.estates.columns.stale")}
                </th>
                <th scope="col" className={TH}>
                  {t("staff.estates.columns.changes")}
                </th>
              </tr>
            </thead>
            <tbody>
              {estates.map((estate) => (
                <tr key={estate.id} data-estate-id={estate.id}>
                  <th scope="row" className={cn(TD, "min-w-48 text-left font-medium")}>
                    <Link
                      to={`${PATH}/${estate.id}`}
                      className="text-heritage underline-offset-4 hover:underline"
                    >
                      {estate.name}
                    </Link>
                    <span className="text-muted block text-xs font-normal tabular-nums">
                      {t("staff.estates.estateId", { id: estate.id })}
                    </span>
                  </th>
                  <td className={cn(TD, "min-w-48")}>{estate.location}</td>
                  <td className={cn(TD, "break-words")}>{estate.ownerEmail}</td>
                  <td className={cn(TD, "whitespace-nowrap")}>
                    {estate.claimedAt ? (
                      formatDay(estate.claimedAt, i18n.language)
                    ) : (
                      <span className="text-muted">{t("staff.estates.notClaimed")}</span>
                    )}
                  </td>
                  <td
                    className={cn(
                      TD,
                      "text-right tabular-nums",
                      estate.staleCount > 0 ? "font-semibold" : "text-muted",
                    )}
                  >
                    {integer.format(estate.staleCount)}
                  </td>
                  <td className={cn(TD, "whitespace-nowrap")}>
                    {estate.revisionCount === 0 ? (
                      <span className="text-muted">{t("staff.estates.noChanges")}</span>
                    ) : (
                      <>
                        {t("staff.estates.changes", { count: estate.revisionCount })}
                        <span className="text-muted block text-xs">
                          {t("staff.estates.lastChange", {
                            date: formatDay(estate.lastChangeAt, i18n.language),
                          })}
                        </span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(links.next || links.first) && (
        <nav
          aria-label={t("staff.estates.pagination")}
          className="flex flex-wrap items-center justify-end gap-3"
        >
          {links.first && (
            <Link to={links.first} className={buttonVariants({ variant: "ghost", size: "sm" })}>
              <ArrowLeftToLine aria-hidden className="size-4" />
              {t("staff.estates.firstPage")}
            </Link>
          )}
          {links.next && (
            <Link
              to={links.next}
              rel="next"
              className={buttonVariants({ variant: "outline", size: "sm" })}
            >
              {t("staff.estates.nextPage")}
              <ArrowRight aria-hidden className="size-4" />
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
