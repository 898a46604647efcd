import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import {
  type LucideIcon,
  Pause,
  Play,
  RefreshCw,
  ScrollText,
  Send,
  Trash2,
  Webhook,
} from "lucide-react";
import type { Route } from "./+types/webhooks";
import {
  WEBHOOK_EVENT_TYPES as EVENT_TYPES,
  type WebhookEventType as EventType,
} from "#domain/events/event-types.ts";
import {
  deleteWebhook,
  listWebhookDeliveries,
  pauseWebhook,
  registerWebhook,
  resumeWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
} from "#domain/webhooks/webhooks.contract.ts";
import { callApi } from "#app/api-client.ts";
import { formatMoment } from "#app/components/staff/format.ts";
import { StaffPageHeader, useHydrated } from "#app/components/staff/staff-page.tsx";
import { Alert, AlertTitle } from "#app/components/ui/alert.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDialog } from "#app/components/ui/confirm-dialog.tsx";
import { CopyValue } from "#app/components/ui/copy-value.tsx";
import { CONTROL_CLASS, Field } from "#app/components/ui/field.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "#app/components/ui/table.tsx";
import { toast } from "#app/hooks/use-toast.ts";
import { requireAdmin, staffTitle } from "./require-admin.server.ts";

export async function loader({ context, request }: Route.LoaderArgs) {
  const { staff } = requireAdmin(context, request);
  const endpoints = await staff.listWebhooks();
  return {
    title: staffTitle(context, "staff.webhooks.title"),
    endpoints: endpoints.map((endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      includeContact: endpoint.includeContact,
      paused: endpoint.paused,
      pendingCount: endpoint.pendingCount,
      failedCount: endpoint.failedCount,
      lastDeliveredAt: endpoint.lastDeliveredAt?.toISOString() ?? null,
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "" },
  { name: "robots", content: "noindex" },
];

type Endpoint = Route.ComponentProps["loaderData"]["endpoints"][number];
type Delivery = {
  id: string;
  eventType: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
};

/**
 * The signed webhooks (docs/webhooks.md): register an endpoint (its secret shown
 * once, to copy), and for each, pause or resume, rotate the secret, send a test event, read
 * the delivery log, delete behind a confirmation.
 */
/** A button of an endpoint's row. */
interface EndpointAction {
  key: string;
  Icon: LucideIcon;
  label: `staff.webhooks.${"pause" | "resume" | "test" | "log" | "rotate" | "delete"}`;
  run: () => void;
  destructive?: boolean;
}

export default function Webhooks({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const language = { language: i18n.language };
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<EventType[]>(["request.created"]);
  const [includeContact, setIncludeContact] = useState(false);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const [log, setLog] = useState<{ endpoint: Endpoint; deliveries: Delivery[] } | null>(null);

  const failed = (message: string | null) =>
    toast({
      variant: "destructive",
      title: t("staff.webhooks.actionFailed"),
      description: message ?? undefined,
    });

  async function register(event: React.FormEvent) {
    event.preventDefault();
    setBusy("register");
    setUrlError(null);
    const answer = await callApi(
      registerWebhook,
      { body: { url, events, includeContact } },
      language,
    );
    setBusy(null);
    if (!answer.ok) {
      const issue = answer.errors.find((one) => one.path === "url" || one.path === "events");
      setUrlError(issue?.message ?? answer.message ?? t("staff.webhooks.actionFailed"));
      return;
    }
    setSecret({ url, secret: answer.data.secret });
    setUrl("");
    await revalidator.revalidate();
  }

  async function act(
    endpoint: Endpoint,
    action: "pause" | "resume" | "rotate" | "test" | "delete",
  ) {
    setBusy(`${action}:${endpoint.id}`);
    const input = { params: { id: endpoint.id } };
    if (action === "rotate") {
      const answer = await callApi(rotateWebhookSecret, input, language);
      setBusy(null);
      if (!answer.ok) return failed(answer.message);
      setSecret({ url: endpoint.url, secret: answer.data.secret });
      return;
    }
    const answer =
      action === "pause"
        ? await callApi(pauseWebhook, input, language)
        : action === "resume"
          ? await callApi(resumeWebhook, input, language)
          : action === "test"
            ? await callApi(sendTestWebhook, input, language)
            : await callApi(deleteWebhook, input, language);
    setBusy(null);
    if (!answer.ok) return failed(answer.message);
    toast({ title: t(`staff.webhooks.done.${action}`, { url: endpoint.url }) });
    if (action === "delete" && log?.endpoint.id === endpoint.id) setLog(null);
    await revalidator.revalidate();
  }

  async function showLog(endpoint: Endpoint) {
    setBusy(`log:${endpoint.id}`);
    const answer = await callApi(listWebhookDeliveries, { params: { id: endpoint.id } }, language);
    setBusy(null);
    if (!answer.ok) return failed(answer.message);
    setLog({ endpoint, deliveries: answer.data.deliveries });
  }

  /** The row's buttons, in order: each an icon, a label and what it does. */
  const endpointActions = (endpoint: Endpoint): EndpointAction[] => [
    endpoint.paused
      ? {
          key: "resume",
          Icon: Play,
          label: "staff.webhooks.resume",
          run: () => void act(endpoint, "resume"),
        }
      : {
          key: "pause",
          Icon: Pause,
          label: "staff.webhooks.pause",
          run: () => void act(endpoint, "pause"),
        },
    {
      key: "test",
      Icon: Send,
      label: "staff.webhooks.test",
      run: () => void act(endpoint, "test"),
    },
    {
      key: "log",
      Icon: ScrollText,
      label: "staff.webhooks.log",
      run: () => void showLog(endpoint),
    },
    {
      key: "rotate",
      Icon: RefreshCw,
      label: "staff.webhooks.rotate",
      run: () => void act(endpoint, "rotate"),
    },
    {
      key: "delete",
      Icon: Trash2,
      label: "staff.webhooks.delete",
      run: () => setDeleting(endpoint),
      destructive: true,
    },
  ];

  const toggle = (type: EventType, on: boolean) =>
    setEvents((current) => (on ? [...current, type] : current.filter((one) => one !== type)));

  return (
    <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 py-10 sm:px-6 lg:py-12">
      <StaffPageHeader title={t("staff.webhooks.title")} description={t("staff.webhooks.intro")} />

      <form
        method="post"
        onSubmit={(event) => void register(event)}
        className="border-gold/30 bg-paper grid gap-5 rounded-sm border p-6 lg:max-w-3xl"
        aria-labelledby="webhook-register-title"
        noValidate
      >
        <h2 id="webhook-register-title" className="text-heritage text-2xl font-semibold">
          {t("staff.webhooks.register.title")}
        </h2>
        <Field
          label={t("staff.webhooks.register.url")}
          hint={t("staff.webhooks.register.urlHint")}
          error={urlError ?? undefined}
        >
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              placeholder="https://"
              className={`${CONTROL_CLASS} font-mono`}
            />
          )}
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-ink mb-1 text-sm font-medium">
            {t("staff.webhooks.register.events")}
          </legend>
          {EVENT_TYPES.map((type) => (
            <label key={type} className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-1"
                checked={events.includes(type)}
                onChange={(event) => toggle(type, event.target.checked)}
              />
              <span>
                <code className="font-mono text-xs">{type}</code>{" "}
                <span className="text-muted">{t(`staff.webhooks.eventNames.${type}`)}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-1"
            checked={includeContact}
            onChange={(event) => setIncludeContact(event.target.checked)}
          />
          <span>
            <span className="text-ink font-medium">{t("staff.webhooks.register.contact")}</span>
            <span className="text-muted block">{t("staff.webhooks.register.contactHint")}</span>
          </span>
        </label>
        <div>
          <Button type="submit" disabled={!hydrated || busy === "register"}>
            <Webhook aria-hidden className="size-4" />
            {t("staff.webhooks.register.submit")}
          </Button>
        </div>
      </form>

      {secret && (
        <Alert variant="warning" className="grid gap-3 lg:max-w-3xl" data-testid="webhook-secret">
          <AlertTitle>{t("staff.webhooks.secret.title")}</AlertTitle>
          <p>{t("staff.webhooks.secret.text", { url: secret.url })}</p>
          <CopyValue
            label={t("staff.webhooks.secret.label")}
            value={secret.secret}
            copyLabel={t("staff.webhooks.secret.copy")}
            copiedLabel={t("staff.webhooks.secret.copied")}
            selectLabel={t("staff.webhooks.secret.select")}
            testId="webhook-secret-value"
          />
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => setSecret(null)}>
              {t("staff.webhooks.secret.done")}
            </Button>
          </div>
        </Alert>
      )}

      {loaderData.endpoints.length === 0 ? (
        <p className="text-muted" data-testid="webhooks-empty">
          {t("staff.webhooks.empty")}
        </p>
      ) : (
        <Table frameProps={{ "aria-labelledby": "webhooks-caption" }} data-testid="webhooks-table">
          <TableCaption id="webhooks-caption">{t("staff.webhooks.caption")}</TableCaption>
          <TableHeader>
            <tr>
              <TableHead scope="col">{t("staff.webhooks.columns.url")}</TableHead>
              <TableHead scope="col">{t("staff.webhooks.columns.events")}</TableHead>
              <TableHead scope="col">{t("staff.webhooks.columns.state")}</TableHead>
              <TableHead scope="col">{t("staff.webhooks.columns.deliveries")}</TableHead>
              <TableHead scope="col">{t("staff.webhooks.columns.actions")}</TableHead>
            </tr>
          </TableHeader>
          <TableBody>
            {loaderData.endpoints.map((endpoint) => (
              <TableRow key={endpoint.id} data-webhook-id={endpoint.id}>
                <TableCell as="th" scope="row" className="font-mono text-xs break-all">
                  {endpoint.url}
                </TableCell>
                <TableCell className="text-xs">
                  <ul>
                    {endpoint.events.map((type) => (
                      <li key={type} className="font-mono">
                        {type}
                      </li>
                    ))}
                  </ul>
                  {endpoint.includeContact && (
                    <p className="text-muted mt-1">{t("staff.webhooks.withContact")}</p>
                  )}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {endpoint.paused ? t("staff.webhooks.paused") : t("staff.webhooks.active")}
                </TableCell>
                <TableCell className="text-sm">
                  {t("staff.webhooks.counts", {
                    pending: endpoint.pendingCount,
                    failed: endpoint.failedCount,
                  })}
                  {endpoint.lastDeliveredAt && (
                    <p className="text-muted text-xs">
                      {t("staff.webhooks.lastDelivered", {
                        time: formatMoment(endpoint.lastDeliveredAt, i18n.language),
                      })}
                    </p>
                  )}
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap gap-2">
                    {endpointActions(endpoint).map(({ key, Icon, label, run, destructive }) => (
                      <Button
                        key={key}
                        type="button"
                        size="sm"
                        variant={destructive ? "destructiveGhost" : "outline"}
                        disabled={busy !== null}
                        onClick={run}
                      >
                        <Icon aria-hidden className="size-4" />
                        {t(label)}
                      </Button>
                    ))}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      {log && (
        <div className="grid gap-3" data-testid="webhook-log">
          <h2 id="webhook-log-title" className="text-heritage text-2xl font-semibold">
            {t("staff.webhooks.logTitle", { url: log.endpoint.url })}
          </h2>
          {log.deliveries.length === 0 ? (
            <p className="text-muted">{t("staff.webhooks.logEmpty")}</p>
          ) : (
            <Table frameProps={{ "aria-labelledby": "webhook-log-title" }}>
              <TableHeader>
                <tr>
                  <TableHead scope="col">{t("staff.webhooks.logColumns.event")}</TableHead>
                  <TableHead scope="col">{t("staff.webhooks.logColumns.status")}</TableHead>
                  <TableHead scope="col">{t("staff.webhooks.logColumns.attempts")}</TableHead>
                  <TableHead scope="col">{t("staff.webhooks.logColumns.lastError")}</TableHead>
                  <TableHead scope="col">{t("staff.webhooks.logColumns.date")}</TableHead>
                </tr>
              </TableHeader>
              <TableBody>
                {log.deliveries.map((delivery) => (
                  <TableRow key={delivery.id}>
                    <TableCell as="th" scope="row" className="font-mono text-xs">
                      {delivery.eventType}
                    </TableCell>
                    <TableCell>{t(`staff.webhooks.deliveryStatus.${delivery.status}`)}</TableCell>
                    <TableCell className="tabular-nums">{delivery.attempts}</TableCell>
                    <TableCell>
                      <code className="text-muted text-xs break-words">
                        {delivery.lastStatus ? `${delivery.lastStatus} ` : ""}
                        {delivery.lastError ?? ""}
                      </code>
                    </TableCell>
                    <TableCell className="whitespace-nowrap">
                      {formatMoment(delivery.createdAt, i18n.language)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      )}

      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t("staff.webhooks.deleteTitle")}
        description={deleting ? t("staff.webhooks.deleteText", { url: deleting.url }) : ""}
        cancelLabel={t("staff.webhooks.cancel")}
        confirmLabel={t("staff.webhooks.deleteConfirm")}
        onConfirm={() => {
          const endpoint = deleting;
          setDeleting(null);
          if (endpoint) void act(endpoint, "delete");
        }}
      />
    </div>
  );
}
