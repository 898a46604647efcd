import { Router } from "express";
import { z } from "zod";
import { CatalogueFilterSchema } from "../../domain/catalogue/catalogue-filter.schema.ts";
import type { UndeliveredMail, UndeliveredMailList } from "../../domain/mail/outbox-health.ts";
import { bookingRequestSchema } from "../../domain/requests/booking-request.schema.ts";
import { membershipSchema } from "../../domain/requests/membership.schema.ts";
import {
  MEMBER_STATUSES,
  REFUSAL_STATUSES,
  REQUEST_KINDS,
  REQUEST_STATUSES,
  type RequestKind,
  statusesOf,
} from "../../domain/requests/options.ts";
import { propertyBookingSchema } from "../../domain/requests/property-booking.schema.ts";
import type {
  countInboxByStatus,
  InboxItem,
  InboxOverview,
  RequestDetail,
  RequestNote,
  StatusHistoryEntry,
  WeeklyCounts,
} from "../../domain/staff/inbox.ts";
import {
  type InboxFilter,
  InboxFilterSchema,
  NoteSchema,
  StatusChangeSchema,
} from "../../domain/staff/inbox.schema.ts";
import { StaffLoginSchema } from "../../domain/staff/login.schema.ts";
import { StaffSetupSchema } from "../../domain/staff/setup.schema.ts";
import type { StaffUser } from "../../domain/staff/staff-user.ts";
import { LANGUAGES } from "../../i18n/config.ts";
import { REQUEST_ENDPOINTS } from "./requests.ts";
import { STAFF_COLLECTIONS } from "../../domain/staff/collections.ts";

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;

const ref = (schemaRef: string) => ({ $ref: `#/components/schemas/${schemaRef}` });
const json = (schemaRef: string) => ({ "application/json": { schema: ref(schemaRef) } });
const error = (description: string, schemaRef = "Error") => ({
  description,
  content: json(schemaRef),
});

/** The API's areas, in the product's words; every operation names one. */
const TAGS = [
  {
    name: "catalogue",
    description: "The castles and estates of the network, in English, French, Italian or Chinese.",
  },
  {
    name: "bot-check",
    description: "The proof-of-work challenge a guest form solves before it is sent.",
  },
  {
    name: "requests",
    description:
      "The three guest forms: a general booking request, a booking of one property and a membership application.",
  },
  {
    name: "staff",
    description:
      "Staff sign-in and sign-out, the first admin's setup link, the inbox overview and the mail the outbox could not deliver. " +
      "Everything but sign-in, sign-out and setup needs a staff session; no answer may be cached (`no-store`).",
  },
  {
    name: "inbox",
    description:
      "The requests guests sent, one collection per kind (booking requests, property bookings, membership applications): list, export, read, change status, add internal notes. " +
      "For admins at the company domain only.",
  },
] as const;

type Operation = {
  operationId: string;
  summary: string;
  tags: [(typeof TAGS)[number]["name"]];
  responses: Record<string, unknown>;
};

/**
 * An operation anyone may call: `security: []` overrides the document's default, which asks
 * for a signed-in staff member. Staff operations declare `security: [{ staffSession: [] }]`.
 */
const publicOperation = <T extends Operation>(operation: T) => ({
  ...operation,
  security: [],
});

const STAFF_SESSION = [{ staffSession: [] }];
const NOT_SIGNED_IN = error(
  "No staff session: not signed in, or the session expired or was revoked",
);
const CROSS_ORIGIN = "A browser request from another origin";

/**
 * An operation behind `requireAdminApi`: it needs the session of an admin account (not
 * disabled) whose email is at the company domain, and adds that guard's 401 and 403. A call
 * that changes state (`sameOriginOnly`) also answers 403 to a browser on another origin.
 */
const adminOperation = <T extends Operation>(operation: T, { changesState = false } = {}) => ({
  ...operation,
  security: STAFF_SESSION,
  responses: {
    ...operation.responses,
    "401": NOT_SIGNED_IN,
    "403": error(
      "The account is not an admin (or is disabled), or its email is not at the company domain" +
        (changesState ? `; or ${CROSS_ORIGIN.toLowerCase()}` : ""),
    ),
  },
});

/** The answers of `jsonBody()`, which reads every JSON request body (its 400 is malformed JSON). */
const JSON_BODY_ERRORS = {
  "413": error("Body larger than 32 KB"),
  "415": error("Body is not application/json"),
};

/**
 * A response body's schema, typed by the domain interface it documents: a field added to or
 * taken from the interface fails the typecheck here until the document says the same.
 */
const objectSchema = <T>(properties: { [K in keyof T]-?: Record<string, unknown> }) => ({
  type: "object",
  required: Object.keys(properties),
  properties,
});

const nullable = (type: string, rest: Record<string, unknown> = {}) => ({
  type: [type, "null"],
  ...rest,
});

const DATE_TIME = { type: "string", format: "date-time" };
const UUID = { type: "string", format: "uuid" };
const COUNT = { type: "integer", minimum: 0 };

/** `{user}`: the answer of sign-in, setup and "who am I". */
const signedInUser = (description: string) => ({
  description,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["user"],
        properties: { user: ref("StaffUser") },
      },
    },
  },
});

const SESSION_COOKIE_SET = {
  "Set-Cookie": {
    description:
      "The session cookie (`castellum_session`; `__Host-castellum_session` in production), HttpOnly and SameSite=Lax, " +
      "until the session expires; and the `lang` cookie with the account's language, so the staff area opens in it.",
    schema: { type: "string" },
  },
};

/** Sign-in, sign-out, setup, the overview and the undelivered mail, under /api/admin. */
function staffPaths() {
  const mailId = {
    name: "id",
    in: "path",
    required: true,
    description: "The mail's id (from the list of undelivered mail)",
    schema: UUID,
  };
  const mailNotFailed = error(
    "The mail is not failed: it is still being retried, sent or discarded",
  );
  return {
    "/api/admin/login": {
      post: publicOperation({
        operationId: "loginStaff",
        summary: "Sign a staff member in",
        tags: ["staff"],
        description:
          "Public, because it is how a session starts. Every try counts against the email and the client's address before the password is checked. " +
          "An unknown email, a wrong password and a disabled account get the same 401, after the same amount of work.",
        requestBody: { required: true, content: json("StaffLogin") },
        responses: {
          "200": { ...signedInUser("Signed in"), headers: SESSION_COOKIE_SET },
          "400": error("Email or password missing, or malformed JSON", "ValidationError"),
          "401": error("Wrong email or password, or a disabled account"),
          "403": error(CROSS_ORIGIN),
          ...JSON_BODY_ERRORS,
          "429": {
            ...error("Too many tries for this email or from this address"),
            headers: {
              "Retry-After": {
                description: "Seconds until the next try is counted",
                schema: { type: "integer", minimum: 1 },
              },
            },
          },
          "503": error(
            "The login limiter cannot be reached, so sign-in is refused rather than let through unmetered",
          ),
        },
      }),
    },
    "/api/admin/logout": {
      post: {
        operationId: "logoutStaff",
        summary: "Sign out",
        tags: ["staff"],
        description:
          "Revokes the session of the cookie and clears the cookie. Without a session there is nothing to revoke, and the answer is the same.",
        // The session is used when there is one, not required: the `{}` alternative says so.
        security: [...STAFF_SESSION, {}],
        responses: {
          "200": {
            description: "Signed out",
            headers: {
              "Set-Cookie": {
                description: "Clears the session cookie",
                schema: { type: "string" },
              },
            },
            content: json("Ok"),
          },
          "403": error(CROSS_ORIGIN),
        },
      },
    },
    "/api/admin/me": {
      get: {
        operationId: "getSignedInStaffUser",
        summary: "The signed-in staff member",
        tags: ["staff"],
        description:
          "Answers for any staff session, admin or not, so a client can tell who is signed in and whether the staff area is open to them (`isAdmin`, the email's domain).",
        security: STAFF_SESSION,
        responses: {
          "200": signedInUser("The account of the session"),
          "401": NOT_SIGNED_IN,
        },
      },
    },
    "/api/admin/setup": {
      post: publicOperation({
        operationId: "completeStaffSetup",
        summary: "Create the first admin from the setup link",
        tags: ["staff"],
        description:
          "Public: there is no staff account yet. While none exists, the server prints a one-time setup link (valid 24 hours); its token creates the first admin and signs it in. " +
          "The email must be at the company domain and the password strong enough; once an admin exists, every link is spent.",
        requestBody: { required: true, content: json("StaffSetup") },
        responses: {
          "201": { ...signedInUser("The first admin, signed in"), headers: SESSION_COOKIE_SET },
          "400": error(
            "Validation failed (an email that is invalid or not at the company domain, a weak password), malformed JSON, or a link that is invalid, expired, used or too late (staff already exist)",
            "ValidationError",
          ),
          "403": error(CROSS_ORIGIN),
          ...JSON_BODY_ERRORS,
        },
      }),
    },
    "/api/admin/overview": {
      get: adminOperation({
        operationId: "getInboxOverview",
        summary: "Counts for the inbox's overview",
        tags: ["staff"],
        responses: {
          "200": {
            description: "Counts per kind and status, and per week",
            content: json("Overview"),
          },
        },
      }),
    },
    "/api/admin/mail": {
      get: adminOperation({
        operationId: "listUndeliveredMail",
        summary: "Mail the outbox gave up on",
        tags: ["staff"],
        responses: {
          "200": {
            description:
              "The newest 50 failed mails, how many failed in all and how many are still being retried",
            content: json("UndeliveredMailList"),
          },
        },
      }),
    },
    "/api/admin/mail/{id}/retry": {
      post: adminOperation(
        {
          operationId: "retryUndeliveredMail",
          summary: "Send a failed mail again",
          tags: ["staff"],
          parameters: [mailId],
          responses: {
            "200": {
              description: "Queued again with a fresh set of attempts, due now",
              content: json("Ok"),
            },
            "404": error("No such mail"),
            "409": mailNotFailed,
          },
        },
        { changesState: true },
      ),
    },
    "/api/admin/mail/{id}": {
      delete: adminOperation(
        {
          operationId: "discardUndeliveredMail",
          summary: "Give up on a failed mail",
          tags: ["staff"],
          description: "The mail leaves the list of undelivered mail and is never sent.",
          parameters: [mailId],
          responses: {
            "204": { description: "Discarded" },
            "404": error("No such mail"),
            "409": mailNotFailed,
          },
        },
        { changesState: true },
      ),
    },
  };
}

/** How each collection is named in operationIds and descriptions. */
const COLLECTION_NAMES: Record<RequestKind, { one: string; many: string; label: string }> = {
  booking_request: { one: "BookingRequest", many: "BookingRequests", label: "booking request" },
  property_booking: { one: "PropertyBooking", many: "PropertyBookings", label: "property booking" },
  membership: {
    one: "MembershipApplication",
    many: "MembershipApplications",
    label: "membership application",
  },
};

/** The inbox filter's query parameters (its `kind` is the collection's path). */
const FILTER_PARAMETERS: Record<Exclude<keyof InboxFilter, "kind">, string> = {
  status: "Only requests in this status",
  q: "A reference (exact), part of the guest's email or name, or at least three digits of the phone number",
  from: "Sent on or after this day (YYYY-MM-DD, UTC)",
  to: "Sent on or before this day (YYYY-MM-DD, UTC)",
  propertyId: "Only requests for this property",
  memberStatus: "Only guests with this member status",
  sort: "Newest or oldest first",
  after: "Where the page starts: the cursor in the previous page's Link header",
  limit: "Requests per page",
};

function filterParameters(kind: RequestKind, { paged }: { paged: boolean }) {
  const schemas = jsonSchema(InboxFilterSchema).properties as Record<string, object>;
  const names = (Object.keys(FILTER_PARAMETERS) as (keyof typeof FILTER_PARAMETERS)[]).filter(
    (name) => paged || (name !== "after" && name !== "limit"),
  );
  return names.map((name) => ({
    name,
    in: "query",
    required: false,
    description: FILTER_PARAMETERS[name],
    // The schema accepts every status; a status this kind never has is refused with 400.
    schema: name === "status" ? { ...schemas.status, enum: statusesOf(kind) } : schemas[name],
  }));
}

/** List, export, read, change and annotate the requests of one kind. */
function collectionPaths(kind: RequestKind, publicUrl: string) {
  const path = `/api${STAFF_COLLECTIONS[kind]}`;
  const { one, many, label } = COLLECTION_NAMES[kind];
  const statuses = statusesOf(kind);
  const refusals = statuses.filter((status) => REFUSAL_STATUSES.includes(status));
  const id = {
    name: "id",
    in: "path",
    required: true,
    description: `The ${label}'s id`,
    schema: UUID,
  };
  const notFound = error(`No ${label} with this id`);
  return {
    [path]: {
      get: adminOperation({
        operationId: `list${many}`,
        summary: `List ${label}s`,
        tags: ["inbox"],
        description: `One page of ${label}s, newest first unless \`sort=oldest\`. Pages follow a cursor, so a request arriving meanwhile neither repeats nor hides a row.`,
        parameters: filterParameters(kind, { paged: true }),
        responses: {
          "200": {
            description: "One page",
            headers: {
              "X-Total-Count": {
                description: "How many requests match the filter, on every page",
                schema: COUNT,
              },
              Link: {
                description: `The next page, when there is one: \`<${publicUrl}${path}?after=…>; rel="next"\``,
                schema: { type: "string" },
              },
            },
            content: { "application/json": { schema: { type: "array", items: ref("InboxItem") } } },
          },
          "400": error(
            "Invalid filter: a status this kind never has, a bad date, cursor or limit",
            "ValidationError",
          ),
        },
      }),
    },
    [`${path}/export.csv`]: {
      get: adminOperation({
        operationId: `export${many}Csv`,
        summary: `Export ${label}s as CSV`,
        tags: ["inbox"],
        description:
          "Every request that matches the filter, not one page, in the list's order. UTF-8 with a byte-order mark; " +
          "column headers, statuses and options in the caller's language. A cell a spreadsheet would run as a formula starts with an apostrophe.",
        parameters: filterParameters(kind, { paged: false }),
        responses: {
          "200": {
            description: "The CSV file",
            headers: {
              "Content-Disposition": {
                description: `\`attachment; filename="${kind}-YYYY-MM-DD.csv"\` (today's date)`,
                schema: { type: "string" },
              },
            },
            content: { "text/csv": { schema: { type: "string" } } },
          },
          "400": error("Invalid filter", "ValidationError"),
        },
      }),
    },
    [`${path}/{id}`]: {
      get: adminOperation({
        operationId: `get${one}`,
        summary: `One ${label} with its history and notes`,
        tags: ["inbox"],
        parameters: [id],
        responses: {
          "200": { description: `The ${label}`, content: json("RequestDetail") },
          "404": notFound,
        },
      }),
      patch: adminOperation(
        {
          operationId: `update${one}Status`,
          summary: `Change a ${label}'s status`,
          tags: ["inbox"],
          description:
            `The statuses of a ${label}: ${statuses.join(", ")}. ${refusals.join(" and ")} ${refusals.length === 1 ? "needs" : "need"} a \`reason\`. ` +
            "The change and its reason join the request's history; `shareReason` shows the reason to the guest, `notifyGuest` mails them. " +
            "With `version` (the request's version when it was read), a request someone changed since is left as it is: 409.",
          parameters: [id],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  allOf: [ref("StatusChange"), { properties: { status: { enum: statuses } } }],
                },
              },
            },
          },
          responses: {
            "200": {
              description: "Changed: the request as it is now",
              content: json("RequestDetail"),
            },
            "400": error(
              `Validation failed: a status a ${label} cannot have, ${refusals.join(" or ")} without a reason, or malformed JSON`,
              "ValidationError",
            ),
            "404": notFound,
            "409": error(
              "Changed by someone else since `version`; nothing was written, `current` is the request as it is now",
              "StatusConflict",
            ),
            ...JSON_BODY_ERRORS,
          },
        },
        { changesState: true },
      ),
    },
    [`${path}/{id}/notes`]: {
      post: adminOperation(
        {
          operationId: `add${one}Note`,
          summary: `Add an internal note to a ${label}`,
          tags: ["inbox"],
          description: "Notes are for staff only; the guest never sees them.",
          parameters: [id],
          requestBody: { required: true, content: json("NewNote") },
          responses: {
            "201": {
              description: "The note, signed with the author's name",
              content: json("Note"),
            },
            "400": error("Empty or too long a note, or malformed JSON", "ValidationError"),
            "404": notFound,
            ...JSON_BODY_ERRORS,
          },
        },
        { changesState: true },
      ),
    },
  };
}

type PathItems = Record<string, Record<string, unknown>>;

/**
 * Path items from several places put together: the staff collections share their path with
 * the guest form that creates requests (POST for guests, GET for staff). The first group keeps
 * its literal type, so callers can still read the public operations without casts.
 */
function mergePaths<T extends PathItems>(first: T, ...more: PathItems[]): T & PathItems {
  const paths: PathItems = {};
  for (const [path, item] of [first, ...more].flatMap((group) => Object.entries(group))) {
    for (const method of Object.keys(item))
      if (paths[path]?.[method])
        throw new Error(`${method.toUpperCase()} ${path} is described twice`);
    paths[path] = { ...paths[path], ...item };
  }
  return paths as T & PathItems;
}

/** The staff's view of requests, sign-in and mail, written from the domain's interfaces. */
function staffSchemas() {
  const byStatus = (description: string) => ({
    type: "object",
    description,
    propertyNames: { enum: REQUEST_STATUSES },
    additionalProperties: COUNT,
  });
  const statusCounts = objectSchema<Awaited<ReturnType<typeof countInboxByStatus>>>({
    total: COUNT,
    byStatus: byStatus("Requests per status; every status of the kind is listed, 0 included"),
  });
  return {
    StaffLogin: jsonSchema(StaffLoginSchema),
    StaffSetup: jsonSchema(StaffSetupSchema),
    StatusChange: jsonSchema(StatusChangeSchema),
    NewNote: jsonSchema(NoteSchema),
    StaffUser: {
      description: "A staff account (never its password hash)",
      ...objectSchema<StaffUser>({
        id: UUID,
        email: { type: "string", format: "email" },
        displayName: { type: "string" },
        isAdmin: { type: "boolean" },
        disabled: { type: "boolean" },
        language: { type: "string", enum: LANGUAGES },
        lastLoginAt: nullable("string", { format: "date-time" }),
      }),
    },
    InboxItem: {
      description: "One request as the inbox lists it",
      ...objectSchema<InboxItem>({
        id: UUID,
        kind: { type: "string", enum: REQUEST_KINDS },
        reference: { type: "string", examples: ["BR-7K4Q-2MXD"] },
        status: { type: "string", enum: REQUEST_STATUSES },
        version: {
          type: "integer",
          minimum: 1,
          description:
            "Raised by every status change; send it back with a change to detect conflicts",
        },
        language: { type: "string", description: "The language the guest used" },
        firstName: { type: "string" },
        lastName: { type: "string" },
        email: { type: "string", format: "email" },
        phone: { type: "string" },
        memberStatus: nullable("string", { enum: [...MEMBER_STATUSES, null] }),
        propertyId: nullable("integer"),
        createdAt: DATE_TIME,
        updatedAt: DATE_TIME,
        details: {
          type: "object",
          description:
            "The validated form as the guest sent it; its fields are those of BookingRequest, PropertyBooking or MembershipApplication",
          additionalProperties: true,
        },
      }),
    },
    RequestDetail: {
      description: "One request with its status history and internal notes, oldest first",
      allOf: [
        ref("InboxItem"),
        objectSchema<Omit<RequestDetail, keyof InboxItem>>({
          history: { type: "array", items: ref("StatusHistoryEntry") },
          notes: { type: "array", items: ref("Note") },
        }),
      ],
    },
    StatusHistoryEntry: objectSchema<StatusHistoryEntry>({
      fromStatus: nullable("string", { enum: [...REQUEST_STATUSES, null] }),
      toStatus: { type: "string", enum: REQUEST_STATUSES },
      changedBy: { type: "string", description: "The email of the staff member" },
      changedAt: DATE_TIME,
      reason: nullable("string"),
      reasonShared: { type: "boolean", description: "Whether the guest sees the reason" },
    }),
    Note: {
      description: "An internal note, for staff only",
      ...objectSchema<RequestNote>({
        id: { type: "integer" },
        authorName: { type: "string" },
        body: { type: "string" },
        createdAt: DATE_TIME,
      }),
    },
    StatusConflict: objectSchema<{ message: string; current: RequestDetail }>({
      message: { type: "string" },
      current: ref("RequestDetail"),
    }),
    Overview: objectSchema<InboxOverview & { counts: Record<RequestKind, unknown> }>({
      weeks: {
        type: "array",
        description:
          "Requests of every kind per week of arrival and current status, oldest week first",
        items: objectSchema<WeeklyCounts>({
          weekStart: { type: "string", format: "date", description: "The week's Monday (UTC)" },
          byStatus: byStatus("Requests per status; a status without requests is left out"),
        }),
      },
      waitingOver48h: {
        ...COUNT,
        description: "Requests still New more than 48 hours after they arrived",
      },
      counts: objectSchema<Record<RequestKind, unknown>>({
        booking_request: statusCounts,
        property_booking: statusCounts,
        membership: statusCounts,
      }),
    }),
    UndeliveredMail: objectSchema<UndeliveredMail>({
      id: UUID,
      recipient: { type: "string", format: "email" },
      subject: { type: "string" },
      template: { type: "string", examples: ["booking_request.status"] },
      requestId: nullable("string", { format: "uuid" }),
      reference: nullable("string", {
        description: "The reference of the request the mail belongs to, if it still exists",
      }),
      attempts: COUNT,
      lastError: nullable("string"),
      createdAt: DATE_TIME,
    }),
    UndeliveredMailList: objectSchema<UndeliveredMailList>({
      mails: { type: "array", description: "Newest first", items: ref("UndeliveredMail") },
      failedCount: { ...COUNT, description: "Every failed mail, those beyond the list included" },
      pendingCount: {
        ...COUNT,
        description: "Mail that failed at least once and waits for its next attempt",
      },
    }),
    Ok: objectSchema<{ ok: true }>({ ok: { type: "boolean", const: true } }),
  };
}

/**
 * The OpenAPI 3.1 description of the API, its public calls and the staff's, with request bodies
 * built from the same zod schemas that the browser and the server validate with (so they cannot
 * drift from what the server enforces) and response bodies typed by the domain's interfaces.
 */
export function buildOpenApiDocument(publicUrl: string) {
  const formOperation = (operationId: string, summary: string, schemaRef: string) =>
    publicOperation({
      operationId,
      summary,
      tags: ["requests"],
      description:
        "Validated with the same schema as the form. Sends a confirmation mail to the guest and a notification to staff. " +
        "Messages are in the request's language (`?lang=`, the `lang` cookie or Accept-Language).",
      parameters: [
        {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "One key per filled form. A retry with the same key and body returns the first answer (kept 24 hours) and stores nothing; the same key with another body is refused with 422.",
          schema: { type: "string", minLength: 1, maxLength: 200 },
        },
        {
          name: "X-Bot-Token",
          in: "header",
          required: false,
          description: "The bot-check token, when the body's `turnstileToken` is empty.",
          schema: { type: "string" },
        },
      ],
      requestBody: { required: true, content: json(schemaRef) },
      responses: {
        "201": {
          description:
            "Stored (the transaction has committed). `Idempotent-Replayed: true` marks a replayed answer.",
          content: json("StoredRequest"),
        },
        "400": error(
          "Validation failed, malformed JSON or a bad Idempotency-Key",
          "ValidationError",
        ),
        "403": error(
          "Bot check missing, invalid, expired or already used; or a cross-origin browser request",
          "BotCheckError",
        ),
        ...JSON_BODY_ERRORS,
        "422": error("Idempotency-Key already used with a different body"),
        "429": error("Too many requests from this address; see Retry-After"),
      },
    });

  return {
    openapi: "3.1.0",
    info: {
      title: "Castellum API",
      version: "1.0.0",
      description:
        "The Castellum site's API. Public: the castle catalogue, the bot-check challenge, the three guest forms, and staff sign-in and first-admin setup. " +
        "Everything else (the inbox of requests, the overview, undelivered mail) needs a staff session of an admin at the company domain; nothing that lists or reads requests is public.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: publicUrl }],
    // Secure by default: an operation that does not say it is public needs a staff session.
    security: [{ staffSession: [] }],
    tags: TAGS,
    paths: mergePaths(
      {
        "/api/castles": {
          get: publicOperation({
            operationId: "listCastles",
            summary: "List or search the castle catalogue",
            tags: ["catalogue"],
            parameters: [
              {
                name: "lang",
                in: "query",
                schema: { type: "string", enum: ["en", "fr", "it", "zh"] },
              },
              ...Object.entries(
                (jsonSchema(CatalogueFilterSchema).properties ?? {}) as Record<string, unknown>,
              ).map(([name, schema]) => ({ name, in: "query", required: false, schema })),
            ],
            responses: {
              "200": {
                description:
                  "Properties; with filters, one page with Link and X-Total-Count headers",
                content: {
                  "application/json": { schema: { type: "array", items: { type: "object" } } },
                },
              },
              "400": error("Invalid filter"),
            },
          }),
        },
        "/api/castles/{idOrSlug}": {
          get: publicOperation({
            operationId: "getCastle",
            summary: "One property by id or slug",
            tags: ["catalogue"],
            parameters: [
              { name: "idOrSlug", in: "path", required: true, schema: { type: "string" } },
              {
                name: "lang",
                in: "query",
                schema: { type: "string", enum: ["en", "fr", "it", "zh"] },
              },
            ],
            responses: {
              "200": {
                description: "The property",
                content: { "application/json": { schema: { type: "object" } } },
              },
              "404": error("No such property"),
            },
          }),
        },
        "/api/bot-check/challenge": {
          get: publicOperation({
            operationId: "getBotCheckChallenge",
            summary: "A fresh ALTCHA proof-of-work challenge (when ALTCHA is the bot check)",
            tags: ["bot-check"],
            responses: {
              "200": {
                description: "Signed challenge for the ALTCHA widget",
                content: { "application/json": { schema: { type: "object" } } },
              },
              "404": error("Turnstile is configured instead"),
              "429": error("Too many challenges from this address"),
            },
          }),
        },
        [`/api${REQUEST_ENDPOINTS.booking_request}`]: {
          post: formOperation(
            "createBookingRequest",
            "Send a general booking request",
            "BookingRequest",
          ),
        },
        [`/api${REQUEST_ENDPOINTS.property_booking}`]: {
          post: formOperation(
            "createPropertyBooking",
            "Request a booking of one property",
            "PropertyBooking",
          ),
        },
        [`/api${REQUEST_ENDPOINTS.membership}`]: {
          post: formOperation(
            "createMembershipApplication",
            "Apply for club membership",
            "MembershipApplication",
          ),
        },
      },
      staffPaths(),
      ...REQUEST_KINDS.map((kind) => collectionPaths(kind, publicUrl)),
    ),
    components: {
      securitySchemes: {
        staffSession: {
          type: "apiKey",
          in: "cookie",
          name: "castellum_session",
          description:
            "The session cookie set when a staff member signs in; for signed-in staff only. In production the cookie is named `__Host-castellum_session`.",
        },
      },
      schemas: {
        BookingRequest: jsonSchema(bookingRequestSchema),
        PropertyBooking: jsonSchema(propertyBookingSchema()),
        MembershipApplication: jsonSchema(membershipSchema),
        ...staffSchemas(),
        StoredRequest: {
          type: "object",
          required: ["id", "reference", "status", "createdAt"],
          properties: {
            id: { type: "string", format: "uuid" },
            reference: { type: "string", examples: ["BR-7K4Q-2MXD"] },
            status: { type: "string", const: "New" },
            createdAt: { type: "string", format: "date-time" },
          },
        },
        Error: {
          type: "object",
          required: ["message"],
          properties: { message: { type: "string" } },
        },
        ValidationError: {
          type: "object",
          required: ["message"],
          properties: {
            message: { type: "string", examples: ["Validation failed"] },
            errors: {
              type: "array",
              items: {
                type: "object",
                required: ["path", "message"],
                properties: { path: { type: "string" }, message: { type: "string" } },
              },
            },
          },
        },
        BotCheckError: {
          type: "object",
          required: ["message"],
          properties: {
            error: { type: "string", const: "invalid_bot_token" },
            message: { type: "string" },
          },
        },
      },
    },
  };
}

export function openApiRoutes(publicUrl: string): Router {
  const router = Router();
  const document = JSON.stringify(buildOpenApiDocument(publicUrl));
  router.get("/openapi.json", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(document);
  });
  return router;
}
