import { Router } from "express";
import { z } from "zod";
import { CatalogueFilterSchema } from "../../domain/catalogue/catalogue-filter.schema.ts";
import { bookingRequestSchema } from "../../domain/requests/booking-request.schema.ts";
import { membershipSchema } from "../../domain/requests/membership.schema.ts";
import { propertyBookingSchema } from "../../domain/requests/property-booking.schema.ts";
import { REQUEST_ENDPOINTS } from "./requests.ts";

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;

const json = (schemaRef: string) => ({
  "application/json": { schema: { $ref: `#/components/schemas/${schemaRef}` } },
});
const error = (description: string, schemaRef = "Error") => ({
  description,
  content: json(schemaRef),
});

/**
 * The OpenAPI 3.1 description of the public API, built from the same zod schemas that the
 * browser and the server validate with (so it cannot drift from what the server enforces).
 */
export function buildOpenApiDocument(publicUrl: string) {
  const formOperation = (summary: string, schemaRef: string) => ({
    summary,
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
      "400": error("Validation failed, malformed JSON or a bad Idempotency-Key", "ValidationError"),
      "403": error(
        "Bot check missing, invalid, expired or already used; or a cross-origin browser request",
        "BotCheckError",
      ),
      "413": error("Body larger than 32 KB"),
      "415": error("Body is not application/json"),
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
        "Public endpoints of the Castellum site: the castle catalogue, the bot-check challenge and the three guest forms. Nothing that lists or reads requests is public.",
    },
    servers: [{ url: publicUrl }],
    paths: {
      "/api/castles": {
        get: {
          summary: "List or search the castle catalogue",
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
              description: "Properties; with filters, one page with Link and X-Total-Count headers",
              content: {
                "application/json": { schema: { type: "array", items: { type: "object" } } },
              },
            },
            "400": error("Invalid filter"),
          },
        },
      },
      "/api/castles/{idOrSlug}": {
        get: {
          summary: "One property by id or slug",
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
        },
      },
      "/api/bot-check/challenge": {
        get: {
          summary: "A fresh ALTCHA proof-of-work challenge (when ALTCHA is the bot check)",
          responses: {
            "200": {
              description: "Signed challenge for the ALTCHA widget",
              content: { "application/json": { schema: { type: "object" } } },
            },
            "404": error("Turnstile is configured instead"),
            "429": error("Too many challenges from this address"),
          },
        },
      },
      [`/api${REQUEST_ENDPOINTS.booking_request}`]: {
        post: formOperation("Send a general booking request", "BookingRequest"),
      },
      [`/api${REQUEST_ENDPOINTS.property_booking}`]: {
        post: formOperation("Request a booking of one property", "PropertyBooking"),
      },
      [`/api${REQUEST_ENDPOINTS.membership}`]: {
        post: formOperation("Apply for club membership", "MembershipApplication"),
      },
    },
    components: {
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
