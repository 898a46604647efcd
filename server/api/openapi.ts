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
import { CatalogueFilterSchema } from "../../domain/catalogue/catalogue-filter.schema.ts";
import { OWNER_CODE_POLICY } from "../../domain/owners/verification.ts";
import { bookingRequestSchema } from "../../domain/requests/booking-request.schema.ts";
import { membershipSchema } from "../../domain/requests/membership.schema.ts";
import { propertyBookingSchema } from "../../domain/requests/property-booking.schema.ts";
import { API_PROPERTY_FIELDS } from "./catalogue.ts";
import { JSON_BODY_LIMIT, MAX_JSON_DEPTH } from "./body.ts";
import { REQUEST_ENDPOINTS } from "./requests.ts";

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

/**
 * The answers of `jsonBody()` (server/api/body.ts), which reads every JSON request body. Its
 * 400s (malformed JSON; nested deeper than MAX_JSON_DEPTH; a NUL character or an unpaired
 * surrogate in a key or string) join each operation's own 400.
 */
const JSON_BODY_ERRORS = {
  "413": error(`Body larger than ${JSON_BODY_LIMIT.replace("kb", " KB")}`),
  "415": error("Body is not application/json (urlencoded forms included)"),
};

/** What the catalogue's paging parameters mean (the filters explain themselves). */
const CATALOGUE_PARAMETERS: Record<string, string> = {
  after:
    "Where the next page starts: the cursor in the previous page's Link header (an id, or score~id in relevance order)",
  before: "Where the previous page ends: the cursor in the Link header",
  limit: "Properties per page (24 by default); asking for it pages the answer",
};

const PROOF_MINUTES = OWNER_CODE_POLICY.proofTtlMs / 60_000;

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

/**
 * The OpenAPI 3.1 description of the API, its public calls and the staff's, with request bodies
 * built from the same zod schemas that the browser and the server validate with (so they cannot
 * drift from what the server enforces) and response bodies typed by the domain's interfaces.
 */
function legacyDocument(publicUrl: string) {
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
    paths: mergePaths({
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
            ).map(([name, schema]) => ({
              name,
              in: "query",
              required: false,
              ...(CATALOGUE_PARAMETERS[name] ? { description: CATALOGUE_PARAMETERS[name] } : {}),
              schema,
            })),
            {
              name: "fields",
              in: "query",
              required: false,
              description:
                "Only these fields of each property, comma-separated or repeated (paged or full list)",
              schema: {
                type: "array",
                items: { type: "string", enum: [...API_PROPERTY_FIELDS] },
              },
              style: "form",
              explode: false,
            },
          ],
          responses: {
            "200": {
              description:
                "Properties: the whole list, or with a filter or a paging parameter one page with Link and X-Total-Count headers",
              headers: {
                "X-Total-Count": {
                  description:
                    "How many properties match, on every page; `1000+` when more than 1,000 do",
                  schema: { type: "string", pattern: "^\\d+\\+?$" },
                },
                Link: {
                  description:
                    'The next and previous pages, when there are: `</api/castles?…&after=…>; rel="next"`',
                  schema: { type: "string" },
                },
              },
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
    }),
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
        BookingRequest: jsonSchema(bookingRequestSchema),
        PropertyBooking: jsonSchema(propertyBookingSchema()),
        MembershipApplication: jsonSchema(membershipSchema),
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
