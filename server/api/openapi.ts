import { Router } from "express";
import { z } from "zod";
import {
  createDocument,
  type ZodObjectInput,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from "zod-openapi";
import type { ApiTag, Operation, ResponseSpec } from "#domain/api/operation.ts";
import { OWNER_CODE_POLICY } from "#domain/owners/owner-code.ts";
import { JSON_BODY_LIMIT, MAX_JSON_DEPTH } from "./body.ts";
import { API_OPERATIONS } from "./operations.ts";

/**
 * The OpenAPI 3.1 document of /api. Every operation, with its parameters, bodies and answers,
 * is rendered from the contract its route parses with (server/api/operations.ts, decision
 * 0014); this file holds only what no single operation says: tags, security schemes and prose.
 */

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
  {
    name: "calendar",
    description:
      "Estate calendars and iCal (RFC 5545): each estate's calendar as staff and its owner see it (confirmed stays, pending requests, blocks, busy times imported from other calendars, and the blocks they add and remove), its secret export feed of its stays and blocks, for the other channels it is let on, and the external feeds it imports, whose busy events close its nights. " +
      "Staff manage any estate's (`/api/admin/estates/{id}/…`, company admins); the owner their own (`/api/property-owners/…`, which a staff admin may also call, naming the estate).",
  },
  {
    name: "pricing",
    description:
      "Prices (docs/decisions/0032): each estate's rates (currency, nightly price, seasons, fees, tax, deposit and balance terms, cancellation policy), kept as revisions staff can put back, and the price of a stay a guest asks for. " +
      "Amounts are integer minor units of the estate's currency. Staff manage any estate's rates (`/api/admin/estates/{id}/rates`); the owner their own (`/api/property-owners/rates`).",
  },
  {
    name: "offers",
    description:
      "Offers and payments (docs/decisions/0033): staff send the guest of a booking request or property booking a priced offer, which the guest accepts or declines from their status page; accepting holds the nights until the deposit is due. " +
      "Every payment and refund is a row of an append-only ledger, recorded by staff (bank transfer, $CASL) or reported by Stripe (card), from which every balance is derived.",
  },
  {
    name: "webhooks",
    description:
      "Signed webhooks (docs/webhooks.md): the endpoints outside Castellum that follow its events, each delivery a JSON POST signed with the endpoint's secret, retried until answered, and logged. " +
      "For admins at the company domain only.",
  },
  {
    name: "privacy",
    description:
      "Guests' rights over their personal data (docs/privacy.md): erasure on request, as the retention job erases it after GUEST_DATA_RETENTION_DAYS. For admins at the company domain only.",
  },
] as const satisfies readonly { name: ApiTag; description: string }[];

const PROOF_MINUTES = OWNER_CODE_POLICY.proofTtlMs / 60_000;

const SECURITY_SCHEMES = {
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
} as const;

const DESCRIPTION =
  "The Castellum site's API. Public: the castle catalogue, the bot-check challenge, the three guest forms, staff sign-in and first-admin setup, and the owner flow's first two steps (ask for a code, prove it). " +
  "Claiming an estate needs the proof cookie of those steps; the calls on an estate need its owner's session or a staff admin's. " +
  "Everything else (the inbox of requests, the overview, undelivered mail, the staff's view of estates) needs a staff session of an admin at the company domain; nothing that lists or reads requests is public. " +
  `Request bodies: JSON (\`application/json\`; anything else, urlencoded forms included, is 415) of at most ${JSON_BODY_LIMIT.replace("kb", " KB")} (else 413), nested at most ${MAX_JSON_DEPTH} levels, without NUL characters or unpaired surrogates (else 400 \`{message, code}\`); a call that reads no body refuses one over the same size with 413; owner uploads take multipart files of their own limits. ` +
  "Every refusal is JSON `{message, code}`: the message in the caller's language, for people; the code stable and snake_case, for programs (each answer lists its codes, with what each means). " +
  "Branch on `code`, never on the message or on which fields a body has.";

/** An operation's answers as zod-openapi reads them: each status with its schema and headers. */
function responsesOf(operation: Operation): ZodOpenApiResponsesObject {
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
function operationObject(operation: Operation): ZodOpenApiOperationObject {
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

/** The document: every operation of the registry, under the site's address. */
export function buildOpenApiDocument(publicUrl: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of API_OPERATIONS)
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: operationObject(operation),
    };
  const document = createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Castellum API",
        version: "1.0.0",
        description: DESCRIPTION,
        license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      },
      servers: [{ url: publicUrl }],
      // Secure by default: an operation that does not say it is public needs a staff session.
      security: [{ staffSession: [] }],
      tags: TAGS.map((tag) => ({ ...tag })),
      paths,
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    { outputIdSuffix: "Output" },
  );
  // The guest forms take the bot-check token in the body or in the X-Bot-Token header (the
  // server puts the header's into the body before the form's schema reads it): not required.
  for (const id of GUEST_FORM_SCHEMAS) {
    const schema = document.components?.schemas?.[id] as { required?: string[] } | undefined;
    if (schema?.required)
      schema.required = schema.required.filter((field) => field !== "turnstileToken");
  }
  return document;
}

/** The guest forms' body schemas, whose `turnstileToken` the X-Bot-Token header may replace. */
const GUEST_FORM_SCHEMAS = ["BookingRequest", "PropertyBooking", "MembershipApplication"];

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
