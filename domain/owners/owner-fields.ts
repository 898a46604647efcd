import { z } from "zod";

/**
 * The fields of an estate that an owner (or staff, for support) edits on the dashboard's
 * Overview tab, grouped as the tab shows them, with one schema per field. The browser and the
 * server parse a value with the same schema: a value arrives as a string (one line or several)
 * or as a list of lines, and leaves as the stored value. Browser-safe: no database, no Node.
 *
 * Every message is a translation key under `owner.errors.*`; `params` fill its placeholders.
 */

/** Text guests read, kept per language: the owner edits one language at a time. */
export const TRANSLATED_FIELDS = [
  "name",
  "location",
  "description",
  "history",
  "facilities",
  "activities",
  "services",
  "accommodation_description",
] as const;

/** Facts that hold in every language. */
export const SHARED_FIELDS = [
  "url",
  "starting_price",
  "price_range",
  "guest_capacity",
  "beds",
  "phone",
  "address",
  "postal_code",
  "city",
  "coordinates",
  "website_info",
] as const;

export const EDITABLE_FIELDS = [...TRANSLATED_FIELDS, ...SHARED_FIELDS] as const;
export type TranslatedField = (typeof TRANSLATED_FIELDS)[number];
export type SharedField = (typeof SHARED_FIELDS)[number];
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** Provenance and revisions also know these two, which are not edited on the Overview tab. */
export type RecordedField = EditableField | "images" | "owner_email";

export function isEditableField(value: unknown): value is EditableField {
  return typeof value === "string" && (EDITABLE_FIELDS as readonly string[]).includes(value);
}

export function isTranslatedField(field: string): field is TranslatedField {
  return (TRANSLATED_FIELDS as readonly string[]).includes(field);
}

/** The cards of the Overview tab, in order; `images`, `selectedImages` and metadata are shown only. */
export const FIELD_GROUPS = [
  { group: "basic", fields: ["name", "url", "location", "description", "history"] },
  { group: "pricing", fields: ["starting_price", "price_range"] },
  { group: "capacity", fields: ["guest_capacity"] },
  { group: "contact", fields: ["phone", "address", "postal_code", "city", "coordinates"] },
  { group: "facilities", fields: ["facilities", "services", "activities"] },
  { group: "accommodation", fields: ["beds", "accommodation_description"] },
  { group: "media", fields: ["images", "selectedImages", "website_info"] },
  { group: "metadata", fields: ["scraped_at", "id"] },
] as const;

/** How a field is edited: one line, a paragraph, one item per line, or `key: value` lines. */
export type FieldKind = "line" | "paragraph" | "list" | "object" | "number";

export const FIELD_KINDS: Record<EditableField, FieldKind> = {
  name: "line",
  location: "line",
  description: "paragraph",
  history: "paragraph",
  facilities: "list",
  activities: "list",
  services: "list",
  accommodation_description: "paragraph",
  url: "line",
  starting_price: "object",
  price_range: "object",
  guest_capacity: "number",
  beds: "number",
  phone: "line",
  address: "line",
  postal_code: "line",
  city: "line",
  coordinates: "object",
  website_info: "object",
};

/** Limits the schemas enforce; the catalogue's content schema uses the same text bounds. */
export const OWNER_LIMITS = {
  name: { min: 2, max: 80 },
  location: { min: 2, max: 120 },
  description: { min: 80, max: 900 },
  history: { min: 80, max: 1500 },
  accommodation: { min: 0, max: 1500 },
  item: { min: 2, max: 120 },
  facilities: { min: 4, max: 12 },
  activities: { min: 3, max: 12 },
  services: { min: 0, max: 20 },
  url: { max: 300 },
  address: { max: 200 },
  city: { max: 80 },
  postalCode: { max: 16 },
  price: { min: 1, max: 10_000_000 },
  guests: { min: 1, max: 200 },
  beds: { min: 1, max: 80 },
  /** Whatever a value is, its raw text is refused beyond this (before any parsing). */
  rawMax: 20_000,
  rawLinesMax: 100,
} as const;

export const CURRENCIES = ["EUR", "GBP", "USD", "CHF"] as const;

/** A value as the API and the editor carry it. */
export type RawValue = string | string[];

// ---------------------------------------------------------------------------------------------
// Building blocks

type Ctx = z.RefinementCtx;
function fail(ctx: Ctx, message: string, params?: Record<string, string | number>) {
  ctx.addIssue({ code: "custom", message, params });
}

/** A raw value as one trimmed string (lines joined with newlines). */
const rawText = z
  .union(
    [z.string(), z.array(z.string()).max(OWNER_LIMITS.rawLinesMax, "owner.errors.tooManyLines")],
    {
      error: "owner.errors.invalid",
    },
  )
  .superRefine((value, ctx) => {
    const length = typeof value === "string" ? value.length : value.join("\n").length;
    if (length > OWNER_LIMITS.rawMax)
      fail(ctx, "owner.errors.tooLong", { max: OWNER_LIMITS.rawMax });
  })
  .transform((value) =>
    (typeof value === "string" ? value : value.join("\n")).replace(/\r\n?/g, "\n").trim(),
  );

/** Letters the text of an estate may not hold: control characters other than newline and tab. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

function boundedText(min: number, max: number, { multiline }: { multiline: boolean }) {
  return rawText.transform((value, ctx) => {
    const text = multiline ? value : value.replace(/\s+/g, " ");
    if (CONTROL.test(text)) fail(ctx, "owner.errors.invalidCharacters");
    else if (text.length < min)
      fail(ctx, min <= 1 ? "owner.errors.required" : "owner.errors.tooShort", { min });
    else if (text.length > max) fail(ctx, "owner.errors.tooLong", { max });
    return text;
  });
}

/** Optional text: empty clears the field (null). */
function optionalText(min: number, max: number) {
  return rawText.transform((value, ctx) => {
    if (value === "") return null;
    if (CONTROL.test(value)) fail(ctx, "owner.errors.invalidCharacters");
    else if (value.length < min) fail(ctx, "owner.errors.tooShort", { min });
    else if (value.length > max) fail(ctx, "owner.errors.tooLong", { max });
    return value;
  });
}

function list(minItems: number, maxItems: number) {
  return rawText.transform((value, ctx) => {
    const items = value
      .split("\n")
      .map((line) => line.trim().replace(/^[-•*]\s+/, ""))
      .filter(Boolean);
    if (items.length < minItems) fail(ctx, "owner.errors.listTooShort", { min: minItems });
    else if (items.length > maxItems) fail(ctx, "owner.errors.listTooLong", { max: maxItems });
    for (const item of items) {
      if (CONTROL.test(item)) return (fail(ctx, "owner.errors.invalidCharacters"), items);
      if (item.length < OWNER_LIMITS.item.min || item.length > OWNER_LIMITS.item.max) {
        fail(ctx, "owner.errors.itemLength", OWNER_LIMITS.item);
        return items;
      }
    }
    return items;
  });
}

function whole(min: number, max: number) {
  return rawText.transform((value, ctx) => {
    const compact = value.replace(/[\s,']/g, "");
    if (!/^\d{1,9}$/.test(compact)) return (fail(ctx, "owner.errors.wholeNumber", { min, max }), 0);
    const number = Number(compact);
    if (number < min || number > max) fail(ctx, "owner.errors.wholeNumber", { min, max });
    return number;
  });
}

/** `key: value` lines as a record of known keys; unknown or repeated keys are refused. */
function keyValues(
  value: string,
  keys: readonly string[],
  ctx: Ctx,
): Record<string, string> | null {
  const record: Record<string, string> = {};
  for (const line of value.split("\n")) {
    if (!line.trim()) continue;
    const match = /^\s*([A-Za-z_]+)\s*:\s*(.*)$/.exec(line);
    if (!match) return (fail(ctx, "owner.errors.keyValueLine", { keys: keys.join(", ") }), null);
    const key = match[1]!.toLowerCase();
    if (!keys.includes(key) || key in record)
      return (fail(ctx, "owner.errors.unknownKey", { key, keys: keys.join(", ") }), null);
    record[key] = match[2]!.trim();
  }
  return record;
}

export function isHttpUrl(value: string): boolean {
  if (value.length > OWNER_LIMITS.url.max || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@.]{2,}$/;
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

/** A postal code as the owner editor takes it: letters, digits, spaces and dashes, 2-16. */
export const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,15}$/;

/** A phone number: an optional +, then digits with spaces, dots, dashes or brackets; 6-15 digits. */
export function isPhoneNumber(value: string): boolean {
  if (!/^\+?[0-9 ()./-]{6,24}$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 6 && digits <= 15;
}

function amount(value: string | undefined, ctx: Ctx, key: string): number | null {
  const compact = (value ?? "").replace(/[\s,']/g, "");
  const number = /^\d{1,9}(\.\d{1,2})?$/.test(compact) ? Number(compact) : NaN;
  if (
    !Number.isFinite(number) ||
    number < OWNER_LIMITS.price.min ||
    number > OWNER_LIMITS.price.max
  ) {
    fail(ctx, "owner.errors.price", { key, ...OWNER_LIMITS.price });
    return null;
  }
  return number;
}

function currency(value: string | undefined, ctx: Ctx): string | null {
  const code = (value ?? "").trim().toUpperCase();
  if (!(CURRENCIES as readonly string[]).includes(code)) {
    fail(ctx, "owner.errors.currency", { currencies: CURRENCIES.join(", ") });
    return null;
  }
  return code;
}

function coordinate(
  value: string | undefined,
  limit: number,
  key: string,
  ctx: Ctx,
): number | null {
  const text = (value ?? "").trim();
  const number = /^-?\d{1,3}(\.\d{1,8})?$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(number) || Math.abs(number) > limit) {
    fail(ctx, "owner.errors.coordinate", { key, min: -limit, max: limit });
    return null;
  }
  return number;
}

// ---------------------------------------------------------------------------------------------
// The stored shapes

export interface MoneyValue {
  amount: number;
  currency: string;
}
export interface PriceRangeValue {
  min: number;
  max: number;
  currency: string;
}
export interface CoordinatesValue {
  lat: number;
  lng: number;
}
export interface WebsiteInfoValue {
  url?: string;
  email?: string;
  phone?: string;
  is_on_airbnb?: boolean;
  facebook?: string;
  instagram?: string;
}

const WEBSITE_INFO_KEYS = [
  "url",
  "email",
  "phone",
  "is_on_airbnb",
  "facebook",
  "instagram",
] as const;

const YES = ["yes", "true", "oui", "sì", "si", "是"];
const NO = ["no", "false", "non", "否"];

/** One schema per editable field: raw value in, stored value out. */
export const FIELD_SCHEMAS = {
  name: boundedText(OWNER_LIMITS.name.min, OWNER_LIMITS.name.max, { multiline: false }),
  location: boundedText(OWNER_LIMITS.location.min, OWNER_LIMITS.location.max, { multiline: false }),
  description: boundedText(OWNER_LIMITS.description.min, OWNER_LIMITS.description.max, {
    multiline: true,
  }),
  history: optionalText(OWNER_LIMITS.history.min, OWNER_LIMITS.history.max),
  accommodation_description: optionalText(1, OWNER_LIMITS.accommodation.max),
  facilities: list(OWNER_LIMITS.facilities.min, OWNER_LIMITS.facilities.max),
  activities: list(OWNER_LIMITS.activities.min, OWNER_LIMITS.activities.max),
  services: list(OWNER_LIMITS.services.min, OWNER_LIMITS.services.max),
  url: rawText.transform((value, ctx) => {
    if (value === "") return null;
    if (!isHttpUrl(value)) fail(ctx, "owner.errors.url");
    return value;
  }),
  guest_capacity: whole(OWNER_LIMITS.guests.min, OWNER_LIMITS.guests.max),
  beds: whole(OWNER_LIMITS.beds.min, OWNER_LIMITS.beds.max),
  phone: rawText.transform((value, ctx) => {
    if (value === "") return null;
    if (!isPhoneNumber(value)) fail(ctx, "owner.errors.phone");
    return value;
  }),
  address: optionalText(2, OWNER_LIMITS.address.max),
  city: optionalText(2, OWNER_LIMITS.city.max),
  postal_code: rawText.transform((value, ctx) => {
    if (value === "") return null;
    if (!POSTAL_CODE.test(value)) fail(ctx, "owner.errors.postalCode");
    return value.toUpperCase();
  }),
  starting_price: rawText.transform((value, ctx): MoneyValue | null => {
    if (value === "") return null;
    const record = keyValues(value, ["amount", "currency"], ctx);
    if (!record) return null;
    const parsed = {
      amount: amount(record.amount, ctx, "amount"),
      currency: currency(record.currency, ctx),
    };
    return parsed.amount === null || parsed.currency === null
      ? null
      : { amount: parsed.amount, currency: parsed.currency };
  }),
  price_range: rawText.transform((value, ctx): PriceRangeValue | null => {
    if (value === "") return null;
    const record = keyValues(value, ["min", "max", "currency"], ctx);
    if (!record) return null;
    const min = amount(record.min, ctx, "min");
    const max = amount(record.max, ctx, "max");
    const code = currency(record.currency, ctx);
    if (min === null || max === null || code === null) return null;
    if (min > max) fail(ctx, "owner.errors.priceRangeOrder");
    return { min, max, currency: code };
  }),
  coordinates: rawText.transform((value, ctx): CoordinatesValue | null => {
    if (value === "") return null;
    const record = keyValues(value, ["lat", "lng"], ctx);
    if (!record) return null;
    const lat = coordinate(record.lat, 90, "lat", ctx);
    const lng = coordinate(record.lng, 180, "lng", ctx);
    return lat === null || lng === null ? null : { lat, lng };
  }),
  website_info: rawText.transform((value, ctx): WebsiteInfoValue => {
    if (value === "") return {};
    const record = keyValues(value, WEBSITE_INFO_KEYS, ctx);
    if (!record) return {};
    const info: WebsiteInfoValue = {};
    for (const [key, text] of Object.entries(record)) {
      if (text === "") continue;
      if (key === "email") {
        if (!isEmailAddress(text)) fail(ctx, "owner.errors.email");
        info.email = text;
      } else if (key === "phone") {
        if (!isPhoneNumber(text)) fail(ctx, "owner.errors.phone");
        info.phone = text;
      } else if (key === "is_on_airbnb") {
        const answer = text.toLowerCase();
        if (YES.includes(answer)) info.is_on_airbnb = true;
        else if (NO.includes(answer)) info.is_on_airbnb = false;
        else fail(ctx, "owner.errors.yesNo", { key });
      } else {
        if (!isHttpUrl(text)) fail(ctx, "owner.errors.url");
        info[key as "url" | "facebook" | "instagram"] = text;
      }
    }
    return info;
  }),
} satisfies Record<EditableField, z.ZodType>;

export type FieldValue<F extends EditableField> = z.output<(typeof FIELD_SCHEMAS)[F]>;
export type StoredValue = FieldValue<EditableField>;

export interface FieldIssueWithParams {
  message: string;
  params: Record<string, string | number>;
}

/** Parses one field's raw value: the stored value, or the first issue (a key and its params). */
export function parseFieldValue(
  field: EditableField,
  raw: unknown,
): { ok: true; value: StoredValue } | { ok: false; issue: FieldIssueWithParams } {
  const result = FIELD_SCHEMAS[field].safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const message = issue?.message.startsWith("owner.errors.")
    ? issue.message
    : "owner.errors.invalid";
  const params =
    issue && "params" in issue && issue.params && typeof issue.params === "object"
      ? (issue.params as Record<string, string | number>)
      : {};
  return { ok: false, issue: { message, params } };
}

/** A stored value as the editor shows it: a list as lines, an object as `key: value` lines. */
export function formatFieldValue(field: EditableField, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.join("\n");
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys =
      field === "website_info" ? WEBSITE_INFO_KEYS : (Object.keys(record) as readonly string[]);
    return keys
      .filter((key) => record[key] !== undefined && record[key] !== null)
      .map((key) => {
        const item = record[key];
        return `${key}: ${typeof item === "boolean" ? (item ? "yes" : "no") : String(item)}`;
      })
      .join("\n");
  }
  return String(value);
}

/** The `key: value` template an empty object field starts from, so owners see its keys. */
export function fieldTemplate(field: EditableField): string {
  switch (field) {
    case "starting_price":
      return "amount: \ncurrency: EUR";
    case "price_range":
      return "min: \nmax: \ncurrency: EUR";
    case "coordinates":
      return "lat: \nlng: ";
    case "website_info":
      return WEBSITE_INFO_KEYS.map((key) => `${key}: `).join("\n");
    default:
      return "";
  }
}

/**
 * Two stored values are the same, whatever the order of their objects' keys: jsonb keeps keys
 * in its own order, and website_info is rebuilt in another, so a plain JSON comparison would
 * see a change where there is none.
 */
export function isSameValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown) =>
    JSON.stringify(value ?? null, (_key, item: unknown) =>
      item && typeof item === "object" && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
        : item,
    );
  return canonical(a) === canonical(b);
}
