import { z } from "zod";
import {
  DateTimeSchema,
  defineOperation,
  error,
  IGNORED_BODY_ERRORS,
  invalid,
  JSON_BODY_ERRORS,
  STAFF_SESSION,
} from "../api/operation.ts";
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from "../events/event-types.ts";
import { MAX_URL_LENGTH } from "../outbound/outbound-errors.ts";
import { adminGuardAnswers } from "../staff/staff-auth.contract.ts";

/**
 * The webhook calls, for admins: register, list, pause and resume, delete,
 * rotate the secret, send a test event, read the delivery log. Browser-safe: the admin page
 * calls these through `callApi`.
 */

export const WebhookEventTypeSchema = z.enum(EVENT_TYPES).meta({ id: "WebhookEventType" });

export const NewWebhookSchema = z
  .strictObject({
    url: z
      .string({ error: "staff.webhooks.errors.urlInvalid" })
      .max(MAX_URL_LENGTH, "staff.webhooks.errors.urlInvalid")
      .refine((value) => /^\s*https?:\/\/\S+\s*$/i.test(value), "staff.webhooks.errors.urlInvalid")
      .describe("The receiver's http or https address"),
    events: z
      .array(WebhookEventTypeSchema, { error: "staff.webhooks.errors.eventsRequired" })
      .min(1, "staff.webhooks.errors.eventsRequired")
      .max(EVENT_TYPES.length * 2, "staff.webhooks.errors.eventsRequired")
      .describe("The event types to send it"),
    includeContact: z
      .boolean()
      .optional()
      .describe("Send the guest's name, email and phone in `contact` (default false)"),
  })
  .meta({ id: "NewWebhook" });
export type NewWebhook = z.infer<typeof NewWebhookSchema>;

export const WebhookSecretSchema = z
  .object({
    id: z.uuid(),
    secret: z
      .string()
      .describe("The signing secret: shown this once, keep it in the receiver's configuration"),
  })
  .meta({ id: "WebhookSecret" });

const COUNT = z.number().int().min(0);

export const WebhookEndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(WebhookEventTypeSchema),
    includeContact: z.boolean(),
    paused: z.boolean(),
    createdBy: z.string().describe("`staff:<email>` of the admin who registered it"),
    createdAt: DateTimeSchema,
    pendingCount: COUNT.describe("Deliveries waiting: due, being retried, or held while paused"),
    failedCount: COUNT.describe("Deliveries given up on"),
    lastDeliveredAt: DateTimeSchema.nullable(),
  })
  .meta({ id: "WebhookEndpoint", description: "An endpoint, without its secret" });

export const WebhookEndpointListSchema = z
  .object({ endpoints: z.array(WebhookEndpointSchema).describe("Oldest first") })
  .meta({ id: "WebhookEndpointList" });

export const WebhookDeliverySchema = z
  .object({
    id: z.uuid(),
    eventId: z.uuid().describe("The `Castellum-Event-Id` the receiver got"),
    eventType: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: COUNT.describe("Attempts the receiver answered (an outage spends none)"),
    nextAttemptAt: DateTimeSchema.nullable().describe("When it goes next; null once settled"),
    lastStatus: z.number().int().nullable().describe("The receiver's last HTTP status"),
    lastError: z.string().nullable(),
    createdAt: DateTimeSchema,
    deliveredAt: DateTimeSchema.nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const WebhookDeliveryListSchema = z
  .object({ deliveries: z.array(WebhookDeliverySchema).describe("Newest first, at most 100") })
  .meta({ id: "WebhookDeliveryList" });

const params = z.object({ id: z.uuid().describe("The endpoint's id") });
const noEndpoint = error("No such endpoint, or a malformed id", ["endpoint_not_found"]);
const path = "/api/admin/webhooks";

export const registerWebhook = defineOperation({
  id: "registerWebhook",
  method: "post",
  path,
  summary: "Register a webhook endpoint",
  description:
    "The address must be http or https and resolve to public addresses only (no loopback, private or link-local network, unless the server allows them); it is checked again at every delivery, and redirects are not followed. " +
    "The endpoint receives the events recorded from now on. The answer holds its signing secret, which is not shown again (rotate it to get a new one).",
  tags: ["webhooks"],
  security: STAFF_SESSION,
  body: { schema: NewWebhookSchema },
  responses: {
    201: { description: "Registered", schema: WebhookSecretSchema },
    400: invalid(
      "Not an http(s) address, a host that does not resolve or resolves to a private address, no or unknown events, too many endpoints, or malformed JSON",
    ),
    ...JSON_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const listWebhooks = defineOperation({
  id: "listWebhooks",
  method: "get",
  path,
  summary: "The webhook endpoints",
  tags: ["webhooks"],
  security: STAFF_SESSION,
  responses: {
    200: { description: "Every endpoint, without secrets", schema: WebhookEndpointListSchema },
    ...adminGuardAnswers(false),
  },
});

const endpointChange = <S extends z.ZodType>(
  id: string,
  suffix: string,
  summary: string,
  description: string,
  ok: { description: string; schema: S },
) =>
  defineOperation({
    id,
    method: "post",
    path: `${path}/{id}/${suffix}`,
    summary,
    description,
    tags: ["webhooks"],
    security: STAFF_SESSION,
    params,
    responses: {
      200: ok,
      404: noEndpoint,
      ...IGNORED_BODY_ERRORS,
      ...adminGuardAnswers(true),
    },
  });

export const pauseWebhook = endpointChange(
  "pauseWebhook",
  "pause",
  "Pause an endpoint",
  "Nothing is sent to it while paused; its events are kept and sent, oldest first, once resumed.",
  { description: "Paused", schema: WebhookEndpointSchema },
);

export const resumeWebhook = endpointChange(
  "resumeWebhook",
  "resume",
  "Resume a paused endpoint",
  "What was kept while it was paused goes at once.",
  { description: "Resumed", schema: WebhookEndpointSchema },
);

export const rotateWebhookSecret = endpointChange(
  "rotateWebhookSecret",
  "rotate-secret",
  "Give an endpoint a new signing secret",
  "Every delivery from now on, retries included, is signed with the new secret only.",
  { description: "The new secret, shown this once", schema: WebhookSecretSchema },
);

export const sendTestWebhook = endpointChange(
  "sendTestWebhook",
  "test",
  "Send a test event",
  "Queues a `webhook.test` event for this endpoint alone, due at once (it waits while the endpoint is paused); follow it in the delivery log.",
  { description: "Queued", schema: WebhookDeliverySchema },
);

export const deleteWebhook = defineOperation({
  id: "deleteWebhook",
  method: "delete",
  path: `${path}/{id}`,
  summary: "Delete an endpoint",
  description: "Nothing more is sent to it; its delivery log goes with it.",
  tags: ["webhooks"],
  security: STAFF_SESSION,
  params,
  responses: {
    204: { description: "Deleted" },
    404: noEndpoint,
    ...IGNORED_BODY_ERRORS,
    ...adminGuardAnswers(true),
  },
});

export const listWebhookDeliveries = defineOperation({
  id: "listWebhookDeliveries",
  method: "get",
  path: `${path}/{id}/deliveries`,
  summary: "An endpoint's delivery log",
  tags: ["webhooks"],
  security: STAFF_SESSION,
  params,
  responses: {
    200: { description: "The newest 100 deliveries", schema: WebhookDeliveryListSchema },
    404: noEndpoint,
    ...adminGuardAnswers(false),
  },
});

export const WEBHOOK_OPERATIONS = [
  registerWebhook,
  listWebhooks,
  pauseWebhook,
  resumeWebhook,
  rotateWebhookSecret,
  sendTestWebhook,
  deleteWebhook,
  listWebhookDeliveries,
];
