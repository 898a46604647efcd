import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { Search } from "lucide-react";
import {
  EstateSearchSchema,
  estateSearchToParams,
  type EstateSearch,
} from "#domain/staff/estates.schema.ts";
import type { Route } from "./+types/estates";
import { requestInfoContext } from "#app/context.ts";
import { formatDay } from "#app/components/staff/format.ts";
import { StaffPageHeader } from "#app/components/staff/staff-page.tsx";
import { Alert, AlertList, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
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
        <Field
          label={t("staff.estates.searchLabel")}
          labelVariant="compact"
          className="min-w-0 flex-1 basis-72"
        >
          {(control) => (
            <span className="relative block">
              <Search
                aria-hidden
                className="text-muted pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2"
              />
              <input
                {...control}
                key={q}
                type="search"
                name="q"
                defaultValue={q}
                maxLength={100}
                placeholder={t("staff.estates.searchPlaceholder")}
                className={cn(CONTROL_CLASS, "pl-9")}
              />
            </span>
          )}
        </Field>
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
        <Alert variant="warning">
          <AlertTitle>{t("staff.filters.invalid")}</AlertTitle>
          <AlertList items={loaderData.problems.map((problem) => t(problem))} />
        </Alert>
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
        <Table
          frameProps={{ "aria-labelledby": "estates-caption" }}
          className={cn(loading && "opacity-60")}
          aria-busy={loading || undefined}
          data-testid="estates-table"
        >
          <TableCaption id="estates-caption">
            {q ? t("staff.estates.captionSearch", { q }) : t("staff.estates.caption")}
          </TableCaption>
          <TableHeader>
            <tr>
              <TableHead scope="col">{t("staff.estates.columns.estate")}</TableHead>
              <TableHead scope="col">{t("staff.estates.columns.location")}</TableHead>
              <TableHead scope="col">{t("staff.estates.columns.ownerEmail")}</TableHead>
              <TableHead scope="col">{t("staff.estates.columns.claimed")}</TableHead>
              <TableHead scope="col" className="text-right">
                {t("staff.estates.columns.stale")}
              </TableHead>
              <TableHead scope="col">{t("staff.estates.columns.changes")}</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {estates.map((estate) => (
              <TableRow key={estate.id} data-estate-id={estate.id}>
                <TableCell as="th" scope="row" className="min-w-48 font-medium">
                  <Link
                    to={`${PATH}/${estate.id}`}
                    className="text-heritage underline-offset-4 hover:underline"
                  >
                    {estate.name}
                  </Link>
                  <span className="text-muted block text-xs font-normal tabular-nums">
                    {t("staff.estates.estateId", { id: estate.id })}
                  </span>
                </TableCell>
                <TableCell className="min-w-48">{estate.location}</TableCell>
                <TableCell className="break-words">{estate.ownerEmail}</TableCell>
                <TableCell className="whitespace-nowrap">
                  {estate.claimedAt ? (
                    formatDay(estate.claimedAt, i18n.language)
                  ) : (
                    <span className="text-muted">{t("staff.estates.notClaimed")}</span>
                  )}
                </TableCell>
                <TableCell
                  className={cn(
                    "text-right tabular-nums",
                    estate.staleCount > 0 ? "font-semibold" : "text-muted",
                  )}
                >
                  {integer.format(estate.staleCount)}
                </TableCell>
                <TableCell className="whitespace-nowrap">
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
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <KeysetPager
        label={t("staff.estates.pagination")}
        firstHref={links.first}
        nextHref={links.next}
      />
    </div>
  );
}
