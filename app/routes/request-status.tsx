import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { CircleDot } from "lucide-react";
import { summarizeRequest } from "#domain/requests/summary.ts";
import { LANGUAGE_TAGS } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/request-status";
import { publicPagesContext, requestInfoContext } from "../context.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { STATUS_TONES, TONE_CLASSES } from "../components/status-tones.ts";
import { cn } from "../components/ui/cn.ts";
import { GuestConversation } from "../components/guest-conversation.tsx";
import { GuestOffer, type GuestRequestAnswer } from "../components/offers/guest-offer.tsx";

/**
 * The guest's status page, behind the unguessable token of the confirmation mail: the
 * request's summary and current status, in the page's language. No account needed; any other
 * token is the not-found page.
 */
export async function loader({ context, params, request: httpRequest }: Route.LoaderArgs) {
  const { language, botCheck } = context.get(requestInfoContext);
  const pages = context.get(publicPagesContext);
  const [request, messages] = await Promise.all([
    pages.readGuestRequest(params.token, language),
    pages.readThreadByStatusToken(params.token),
  ]);
  if (!request || !messages) throw data(null, { status: 404 });
  const { details, id: _id, language: _language, ...guest } = request;
  const t = (key: string, values: Record<string, unknown> = {}) => translate(language, key, values);
  return {
    title: translate(language, "meta.pageTitle", {
      title: t("requestStatus.title", { reference: request.reference }),
    }),
    reference: request.reference,
    kind: request.kind,
    status: request.status,
    reason: request.reason,
    submitted: new Intl.DateTimeFormat(LANGUAGE_TAGS[language], {
      dateStyle: "long",
      timeStyle: "long",
      timeZone: "UTC",
    }).format(new Date(request.createdAt)),
    rows: summarizeRequest(request.kind, details, language, t),
    token: params.token,
    messages,
    botCheck,
    // As the guest API answers it: dates as text, the lines labelled in the page's language.
    guest: JSON.parse(JSON.stringify(guest)) as GuestRequestAnswer,
    justPaid: new URL(httpRequest.url).searchParams.has("paid"),
  };
}

export function headers() {
  // Private: never cached by a shared cache, and the token never leaks through Referer.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex, nofollow" },
];

export default function RequestStatus({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { reference, kind, status, reason, submitted, rows, token, messages, botCheck, guest } =
    loaderData;
  return (
    <PageFrame>
      <PageHeader title={t("requestStatus.title", { reference })} />
      <div className="mt-10 grid max-w-4xl gap-8">
        <div className="border-gold/30 bg-paper shadow-card rounded-sm border p-6 sm:p-8">
          <dl className="grid gap-6 sm:grid-cols-3">
            <div>
              <dt className="text-muted text-sm">{t("requestStatus.kind")}</dt>
              <dd className="mt-1 font-medium first-letter:uppercase">{t(`mail.kinds.${kind}`)}</dd>
            </div>
            <div>
              <dt className="text-muted text-sm">{t("requestStatus.submitted")}</dt>
              <dd className="mt-1 font-medium">{submitted}</dd>
            </div>
            <div>
              <dt className="text-muted text-sm">{t("requestStatus.status")}</dt>
              <dd className="mt-1">
                <span
                  data-testid="request-status"
                  className={cn(
                    "inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-semibold",
                    TONE_CLASSES[STATUS_TONES[status]].badge,
                  )}
                >
                  <CircleDot aria-hidden className="size-3.5" />
                  {t(`requestStatus.statuses.${status}`)}
                </span>
              </dd>
            </div>
          </dl>
          <p className="text-ink mt-6">{t(`requestStatus.explain.${status}`)}</p>
          {reason ? (
            <div className="border-gold/30 mt-6 border-t pt-6">
              <h2 className="text-muted text-sm">{t("requestStatus.reason")}</h2>
              <p className="mt-1 break-words whitespace-pre-wrap" data-testid="request-reason">
                {reason}
              </p>
            </div>
          ) : null}
        </div>
        {guest.offer && <GuestOffer token={token} request={guest} justPaid={loaderData.justPaid} />}
        <GuestConversation token={token} initialMessages={messages} botCheck={botCheck} />
        <section className="border-gold/30 bg-paper rounded-sm border p-6 sm:p-8">
          <h2 className="font-display text-heritage text-3xl font-semibold">
            {t("requestStatus.summary")}
          </h2>
          <dl className="mt-6 grid gap-x-8 gap-y-4 sm:grid-cols-[minmax(0,14rem)_1fr]">
            {rows.map((row) => (
              <div key={row.label} className="contents">
                <dt className="text-muted text-sm font-medium">{row.label}</dt>
                <dd className="break-words whitespace-pre-wrap">{row.value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <div className="text-muted flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2 text-sm">
          <p>{t("requestStatus.private")}</p>
          <Link
            to="/privacy"
            className="text-heritage underline underline-offset-4"
            data-testid="status-privacy-link"
          >
            {t("privacyNotice.link")}
          </Link>
        </div>
      </div>
    </PageFrame>
  );
}
