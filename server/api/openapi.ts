import { Router } from "express";
import {
  createDocument,
  type ZodObjectInput,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
  type ZodOpenApiObject,
} from "zod-openapi";
import type { Operation as ApiOperation, ResponseSpec } from "../../domain/api/operation.ts";
import { API_OPERATIONS } from "./operations.ts";
import { z } from "zod";
import type { UndeliveredMail, UndeliveredMailList } from "../../domain/mail/outbox-health.ts";
import type { EstateRevision, StaffEstateRow } from "../../domain/owners/revisions.ts";
import { OWNER_CODE_POLICY } from "../../domain/owners/verification.ts";
import {
  MEMBER_STATUSES,
  REFUSAL_STATUSES,
  REQUEST_KINDS,
  REQUEST_STATUSES,
  type RequestKind,
  statusesOf,
} from "../../domain/requests/options.ts";
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
import type { StaffEstateRecord } from "../../domain/staff/estates.ts";
import {
  ESTATE_PAGE_SIZE,
  EstateSearchSchema,
  OwnerEmailChangeSchema,
} from "../../domain/staff/estates.schema.ts";
import type { StaffUser } from "../../domain/staff/staff-user.ts";
import { LANGUAGES } from "../../i18n/config.ts";
import { JSON_BODY_LIMIT, MAX_JSON_DEPTH } from "./body.ts";
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
  {
    name: "owners",
    description:
      "The owner area: an estate's owner proves the contact email on record with a one-time code, claims the estate and edits its text, facts and images. " +
      "The calls on an estate take an owner session (their own claimed estates only) or the session of a staff admin at the company domain, who names the estate with `propertyId`. " +
      "No answer may be cached (`no-store`).",
  },
  {
    name: "estates",
    description:
      "The staff side of the owner area: find an estate, change its owner contact email, read its history of changes by owners and staff, revert one, and see the translations that fell behind an edit. " +
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

/**
 * The answers of `jsonBody()` (server/api/body.ts), which reads every JSON request body. Its
 * 400s (malformed JSON; nested deeper than MAX_JSON_DEPTH; a NUL character or an unpaired
 * surrogate in a key or string) join each operation's own 400.
 */
const JSON_BODY_ERRORS = {
  "413": error(`Body larger than ${JSON_BODY_LIMIT.replace("kb", " KB")}`),
  "415": error("Body is not application/json (urlencoded forms included)"),
};

/** A call that reads no body still refuses a large one (`ignoredBody()`). */
const IGNORED_BODY_ERRORS = {
  "413": error(
    `A body (which this call does not read) larger than ${JSON_BODY_LIMIT.replace("kb", " KB")}`,
  ),
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
          ...IGNORED_BODY_ERRORS,
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
            ...IGNORED_BODY_ERRORS,
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
            ...IGNORED_BODY_ERRORS,
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

/** An estate's id, in a path, a query or a body: a positive whole number that fits 32 bits. */
const ESTATE_ID = { type: "integer", minimum: 1, maximum: 2_147_483_647 };
const PROOF_MINUTES = OWNER_CODE_POLICY.proofTtlMs / 60_000;

/** The staff side of the owner area (issue 10), under /api/admin/estates. */
function staffEstatePaths() {
  const estateId = {
    name: "id",
    in: "path",
    required: true,
    description: "The estate's id",
    schema: ESTATE_ID,
  };
  const search = jsonSchema(EstateSearchSchema).properties as Record<string, object>;
  return {
    "/api/admin/estates": {
      get: adminOperation({
        operationId: "listStaffEstates",
        summary: "List or search the estates",
        tags: ["estates"],
        description:
          `${ESTATE_PAGE_SIZE} estates a page, by id, each named in the caller's language (else English) with its owner email, its last claim with that email, and its counts of changes and stale translations. ` +
          "Pages follow a cursor: `after` is the previous page's `nextAfter`.",
        parameters: [
          {
            name: "q",
            in: "query",
            required: false,
            description: "Part of an estate's name, in any language, or of its owner email",
            schema: search.q,
          },
          {
            name: "after",
            in: "query",
            required: false,
            description: "Where the page starts: the previous page's `nextAfter`",
            schema: search.after,
          },
        ],
        responses: {
          "200": { description: "One page", content: json("StaffEstatePage") },
          "400": error("A search longer than 100 characters, or a bad cursor", "ValidationError"),
        },
      }),
    },
    "/api/admin/estates/{id}": {
      get: adminOperation({
        operationId: "getStaffEstate",
        summary: "One estate with its history and stale translations",
        tags: ["estates"],
        description:
          "The owner record as the owner sees it (in the caller's language, else English), the changes by owners and staff (newest first), and the translations flagged as out of date.",
        parameters: [estateId],
        responses: {
          "200": { description: "The estate", content: json("StaffEstate") },
          "404": error("No estate with this id"),
        },
      }),
    },
    "/api/admin/estates/{id}/owner-email": {
      patch: adminOperation(
        {
          operationId: "setEstateOwnerEmail",
          summary: "Change an estate's owner contact email",
          tags: ["estates"],
          description:
            "Claims made with the former email stop granting access at once; the owner of the new email claims the estate through the owner flow. " +
            "The email is stored trimmed and in lower case; a change joins the estate's history.",
          parameters: [estateId],
          requestBody: { required: true, content: json("OwnerEmailChange") },
          responses: {
            "200": {
              description: "The email on record now, and whether it changed",
              content: json("OwnerEmailChanged"),
            },
            "400": error("Missing or not an email, or malformed JSON", "ValidationError"),
            "404": error("No estate with this id"),
            ...JSON_BODY_ERRORS,
          },
        },
        { changesState: true },
      ),
    },
    "/api/admin/estates/{id}/revisions/{revisionId}/revert": {
      post: adminOperation(
        {
          operationId: "revertEstateRevision",
          summary: "Undo one change to an estate",
          tags: ["estates"],
          description:
            "Puts the field back to the value it had before the revision, as a new revision by the staff member, and marks the revision reverted. " +
            "Refused when the field has changed again since, so no later change is lost unseen. Undoing an edit of a translated field also clears the out-of-date flags it raised.",
          parameters: [
            estateId,
            {
              name: "revisionId",
              in: "path",
              required: true,
              description: "The revision's id (`id` of an EstateRevision)",
              schema: ESTATE_ID,
            },
          ],
          responses: {
            "200": {
              description: "Reverted: the id of the revision that records it",
              content: json("RevisionReverted"),
            },
            "404": error("No such estate, or no such revision of it"),
            "409": error(
              "The field has changed since the revision; nothing was written, `current` is its value now",
              "RevertConflict",
            ),
            "422": error(
              "Not revertable (a kind of change that cannot be undone, or one that gave a required field its first value), or already reverted",
            ),
            ...IGNORED_BODY_ERRORS,
          },
        },
        { changesState: true },
      ),
    },
  };
}

/** The owner area's bodies, and the staff's view of estates, written from the domain's types. */
function staffEstateSchemas() {
  const text = { type: "string" };
  return {
    StaffEstateRow: objectSchema<StaffEstateRow>({
      id: ESTATE_ID,
      name: { ...text, description: "In the caller's language, else English" },
      location: text,
      ownerEmail: { ...text, description: "The owner contact email on record" },
      claimedAt: nullable("string", {
        format: "date-time",
        description: "When the estate was last claimed with the email on record, if ever",
      }),
      staleCount: { ...COUNT, description: "Translations flagged as out of date" },
      revisionCount: { ...COUNT, description: "Changes by owners and staff, reverts left out" },
      lastChangeAt: nullable("string", { format: "date-time" }),
    }),
    StaffEstatePage: objectSchema<{ estates: StaffEstateRow[]; nextAfter: number | null }>({
      estates: { type: "array", items: ref("StaffEstateRow") },
      nextAfter: nullable("integer", {
        description: "The `after` of the next page; null on the last page",
      }),
    }),
    EstateRevision: {
      description: "One change to an estate by an owner or a member of staff",
      ...objectSchema<EstateRevision>({
        id: { type: "integer" },
        field: {
          ...text,
          description:
            "An editable field, `images` (the shown images), `owner_email` or `uploads` (pictures added or deleted)",
        },
        lang: {
          ...text,
          description: "The language of a translated field's edit; `*` for the others",
        },
        oldValue: { description: "The stored value before; null when there was none" },
        newValue: { description: "The stored value after" },
        oldText: { ...text, description: "The value before, as the editor shows it" },
        newText: { ...text, description: "The value after, as the editor shows it" },
        actorRole: { type: "string", enum: ["owner", "staff"] },
        actor: { ...text, description: "The email of the owner or the member of staff" },
        createdAt: DATE_TIME,
        revertedAt: nullable("string", { format: "date-time" }),
        revertedBy: nullable("string", { description: "The email of who reverted it" }),
        revertOf: nullable("integer", { description: "The revision this one reverted" }),
        revertable: {
          type: "boolean",
          description:
            "Whether staff may revert it now: not yet reverted, a change that can be undone",
        },
      }),
    },
    StaffEstate: objectSchema<StaffEstateRecord>({
      estate: ref("OwnerPropertyDetails"),
      revisions: {
        type: "array",
        description: "Changes by owners and staff, newest first (the latest 200)",
        items: ref("EstateRevision"),
      },
      stale: {
        type: "array",
        description: "Translations flagged as out of date, by field then language",
        items: ref("StaleTranslation"),
      },
    }),
    OwnerEmailChange: jsonSchema(OwnerEmailChangeSchema),
    OwnerEmailChanged: objectSchema<{ email: string; changed: boolean }>({
      email: { type: "string", format: "email" },
      changed: { type: "boolean", description: "False when the estate already had this email" },
    }),
    RevisionReverted: objectSchema<{ revisionId: number }>({
      revisionId: { type: "integer", description: "The new revision that records the revert" },
    }),
    RevertConflict: objectSchema<{ message: string; current: string }>({
      message: text,
      current: { ...text, description: "The field's value now, as the editor shows it" },
    }),
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
        description: "Pending mail that is late: a try failed, or it has waited over a minute",
      },
      oldestWaitingSince: nullable("string", {
        format: "date-time",
        description: "When the oldest late mail was queued; null when none is late",
      }),
      lastWaitingError: nullable("string", {
        description: "The error of the latest failed try among the late mail",
      }),
    }),
  };
}

/**
 * The OpenAPI 3.1 description of the API, its public calls and the staff's, with request bodies
 * built from the same zod schemas that the browser and the server validate with (so they cannot
 * drift from what the server enforces) and response bodies typed by the domain's interfaces.
 */
function legacyDocument(publicUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Castellum API",
      version: "1.0.0",
      description:
        "The Castellum site's API. Public: the castle catalogue, the bot-check challenge, the three guest forms, staff sign-in and first-admin setup, and the owner flow's first two steps (ask for a code, prove it). " +
        "Claiming an estate needs the proof cookie of those steps; the calls on an estate need its owner's session or a staff admin's. " +
        "Everything else (the inbox of requests, the overview, undelivered mail, the staff's view of estates) needs a staff session of an admin at the company domain; nothing that lists or reads requests is public. " +
        `Request bodies: JSON (\`application/json\`; anything else, urlencoded forms included, is 415) of at most ${JSON_BODY_LIMIT.replace("kb", " KB")} (else 413), nested at most ${MAX_JSON_DEPTH} levels, without NUL characters or unpaired surrogates (else 400 \`{message}\`); a call that reads no body refuses one over the same size with 413; owner uploads take multipart files of their own limits. ` +
        "Every refusal is JSON with a `message` in the caller's language.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: publicUrl }],
    // Secure by default: an operation that does not say it is public needs a staff session.
    security: [{ staffSession: [] }],
    tags: TAGS,
    paths: mergePaths(
      {
        // The catalogue, the bot-check challenge and the guest forms: in the registry.
      },
      staffPaths(),
      ...REQUEST_KINDS.map((kind) => collectionPaths(kind, publicUrl)),
      staffEstatePaths(),
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
        ownerSession: {
          type: "apiKey",
          in: "cookie",
          name: "castellum_session",
          description:
            "The same session cookie, holding an estate owner's session: set by claim-property, for the owner's claimed estates only " +
            "(those still on record with the owner's email). In production the cookie is named `__Host-castellum_session`.",
        },
        ownerProof: {
          type: "apiKey",
          in: "cookie",
          name: "castellum_owner_proof",
          description: `The proof of a verified owner code, set by verify-code: HttpOnly, SameSite=Strict, sent to /api/property-owners only, for ${PROOF_MINUTES} minutes and one claim.`,
        },
      },
      schemas: {
        ...staffSchemas(),
        ...staffEstateSchemas(),
      },
    },
  };
}

/** An operation's answers as zod-openapi reads them: each status with its schema and headers. */
function responsesOf(operation: ApiOperation): ZodOpenApiResponsesObject {
  const entries: [string, ResponseSpec][] = Object.entries(operation.responses);
  return Object.fromEntries(
    entries.map(([status, spec]): [string, ZodOpenApiResponseObject] => [
      status,
      {
        description: spec.description,
        ...(spec.headers
          ? {
              headers: z.object(
                Object.fromEntries(
                  Object.entries(spec.headers).map(([name, header]) => [
                    name,
                    header.schema.meta({ description: header.description }),
                  ]),
                ),
              ),
            }
          : {}),
        ...(spec.schema
          ? { content: { [spec.contentType ?? "application/json"]: { schema: spec.schema } } }
          : {}),
      },
    ]),
  );
}

/** One operation of the registry as an OpenAPI operation (zod-openapi renders the schemas). */
function operationObject(operation: ApiOperation): ZodOpenApiOperationObject {
  const body = operation.body;
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: operation.tags,
    security: operation.security,
    requestParams: {
      ...(operation.params ? { path: operation.params as ZodObjectInput } : {}),
      ...(operation.query ? { query: operation.query as ZodObjectInput } : {}),
      ...(operation.headers ? { header: operation.headers } : {}),
    },
    ...(body
      ? {
          requestBody: {
            required: body.required ?? true,
            ...(body.description ? { description: body.description } : {}),
            content: {
              [body.contentType ?? "application/json"]: {
                schema: body.schema,
                ...(body.encoding ? { encoding: body.encoding } : {}),
              },
            },
          },
        }
      : {}),
    responses: responsesOf(operation),
  };
}

/**
 * The OpenAPI 3.1 document of /api: every operation of the registry (server/api/operations.ts)
 * rendered from the schemas its route parses with; tags, security schemes and prose are here.
 */
export function buildOpenApiDocument(publicUrl: string) {
  const legacy = legacyDocument(publicUrl);
  const paths: Record<string, Record<string, unknown>> = { ...legacy.paths };
  for (const operation of API_OPERATIONS) {
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
    };
  }
  return createDocument(
    { ...legacy, paths: paths as ZodOpenApiPathsObject } as unknown as ZodOpenApiObject,
    { outputIdSuffix: "Output" },
  );
}

/** Where the document is served: the one /api route that is not an operation of its own. */
export const DOCUMENT_PATH = "/api/openapi.json";

export function openApiRoutes(publicUrl: string): Router {
  const router = Router();
  const document = JSON.stringify(buildOpenApiDocument(publicUrl));
  router.get(DOCUMENT_PATH.replace(/^\/api/, ""), (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(document);
  });
  return router;
}
