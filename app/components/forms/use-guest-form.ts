import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type DefaultValues, type FieldErrors, type FieldValues, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { lazyZodResolver } from "./lazy-resolver.ts";
import { whenEngaged } from "./when-engaged.ts";
import { toast } from "#app/hooks/use-toast.ts";
import type { BotCheckHandle } from "./bot-check.tsx";
import type { SummaryError } from "./error-summary.tsx";
import { fieldId } from "./fields.tsx";
import type { z } from "zod";
import type { FORM_OPERATIONS, StoredRequestSchema } from "#domain/requests/requests.contract.ts";
import { readAnswer } from "#app/api-client.ts";

/** What the API answers with 201: the stored record. */
export type StoredRequest = z.output<typeof StoredRequestSchema>;

/** The operation a guest form sends to (domain/requests/requests.contract.ts). */
export type GuestFormOperation = (typeof FORM_OPERATIONS)[keyof typeof FORM_OPERATIONS];

interface GuestFormOptions<Values extends FieldValues> {
  /** The `<form>` element's id: its server-rendered fields may hold what the guest typed. */
  formId: string;
  /** Loads the form's shared zod schema (dynamic import: not in the page's first load). */
  loadSchema: () => Promise<import("zod").ZodType>;
  defaultValues: DefaultValues<Values>;
  /**
   * Loads the operation the form sends to (dynamic import, like the schema: the contract holds
   * every form's schema). Its answers are read with the schemas it documents.
   */
  loadOperation: () => Promise<GuestFormOperation>;
  /** The form's fields, in page order: their labels (`forms.fields.*`) name them in messages. */
  fields: readonly string[];
  /**
   * What a failure without a message of the server says: `failed` ('Failed to
   * submit booking request'), then `fallback` ('There was a problem…') if the form has one.
   */
  failure: { failed: string; fallback?: string };
  onSuccess(answer: StoredRequest, values: Values): void;
}

/** The bot-check token's field in every guest form's schema. */
const TOKEN_FIELD = "turnstileToken";

/**
 * One guest form: react-hook-form with the shared zod schema, the bot-check token, the
 * Idempotency-Key, the POST, and every answer a submit gets (summary, toasts, focus).
 * `GuestForm` (guest-form.tsx) renders what it returns.
 */
export function useGuestForm<Values extends FieldValues>(options: GuestFormOptions<Values>) {
  const { t, i18n } = useTranslation();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the field list is constant
  const labels = useMemo(() => fieldLabels(options.fields, t), [t]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one resolver per form
  const schema = useMemo(() => lazyZodResolver<Values, Values>(options.loadSchema), []);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- one operation per form
  const operation = useMemo(() => lazyOperation(options.loadOperation), []);
  // Fetched when the guest starts on the form (or the page is idle), so the first submit does
  // not wait for them; a submit before they arrived awaits them.
  useEffect(
    () =>
      whenEngaged(document, () => {
        schema.preload();
        operation.preload();
      }),
    [schema, operation],
  );
  // The form hydrates when the guest engages with it (see form-island.tsx): start from what
  // they already typed into the server's HTML, or registering the fields would overwrite it.
  const [initialValues] = useState(() => valuesInPage(options.formId, options.defaultValues));
  const form = useForm<Values, unknown, Values>({
    resolver: schema.resolver,
    defaultValues: initialValues,
    mode: "onSubmit",
    reValidateMode: "onChange",
    shouldFocusError: false,
  });
  const [submitting, setSubmitting] = useState(false);
  const [showSummary, setShowSummary] = useState(false);
  const [token, setTokenState] = useState<string | null>(null);
  const botCheck = useRef<BotCheckHandle>(null);
  /** The key of the body last sent: the same body again (a retry) reuses it. */
  const lastSent = useRef<{ body: string; key: string } | null>(null);

  const setToken = useCallback(
    (value: string | null) => {
      setTokenState(value);
      form.setValue(TOKEN_FIELD as never, (value ?? "") as never, {
        shouldValidate: form.formState.isSubmitted,
      });
    },
    [form],
  );

  const summary: SummaryError[] = showSummary
    ? orderedErrors(form.formState.errors).map(([name, message]) => ({
        name,
        label: labels[name] ?? name,
        message,
      }))
    : [];

  const focusFirstError = (names: string[]) => {
    requestAnimationFrame(() => {
      const first = names
        .map((name) => document.getElementById(fieldId(name)))
        .find((element): element is HTMLElement => element !== null);
      if (!first) return;
      const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      first.scrollIntoView({ block: "center", behavior: reduce ? "auto" : "smooth" });
      first.focus({ preventScroll: true });
    });
  };

  /**
   * A submit the schema refused. The summary lists every error, the bot check's included, and
   * the first invalid field takes the focus. One toast (spec: one at a time): the fields come
   * first, with 'Form Validation Error'; when the bot check is all that is missing,
   * 'Verification Required', and the focus goes to the widget.
   */
  const onInvalid = (errors: FieldErrors) => {
    setShowSummary(true);
    const ordered = orderedErrors(errors);
    const [first] = ordered;
    const isOnlyBotCheck = ordered.length > 0 && ordered.every(([name]) => name === TOKEN_FIELD);
    // No token yet: get the check going, so it is done by the time the fields are.
    if (ordered.some(([name]) => name === TOKEN_FIELD)) botCheck.current?.start();
    if (isOnlyBotCheck) {
      toast({
        variant: "destructive",
        title: t("forms.toast.verificationTitle"),
        description: t("forms.toast.verificationText"),
      });
    } else {
      toast({
        variant: "destructive",
        title: t("forms.toast.validationTitle"),
        description: first
          ? t("forms.fieldError", {
              label: labels[first[0]] ?? first[0],
              message: t(first[1]),
            })
          : t("forms.toast.validationFallback"),
      });
    }
    focusFirstError(ordered.map(([name]) => name));
  };

  const send = async (values: Values) => {
    const body = JSON.stringify(values);
    const key = lastSent.current?.body === body ? lastSent.current.key : crypto.randomUUID();
    lastSent.current = { body, key };
    setSubmitting(true);
    try {
      const sendTo = await operation.get();
      const response = await fetch(sendTo.path, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Accept-Language": i18n.language,
          "Idempotency-Key": key,
          "X-Bot-Token": token ?? "",
        },
        body,
      });
      const json: unknown = await response.json().catch(() => undefined);
      const answer = readAnswer(sendTo, response.status, json);
      if (answer.ok) {
        lastSent.current = null;
        setShowSummary(false);
        options.onSuccess(answer.data, values);
        return;
      }
      if (answer.status === 403) {
        botCheck.current?.reset();
        toast({
          variant: "destructive",
          title: t("forms.toast.errorTitle"),
          description: t("errors.botCheckFailed"),
        });
        return;
      }
      const { errors } = answer;
      if (errors.length > 0) {
        for (const error of errors)
          form.setError(error.path as never, { type: "server", message: error.message });
        setShowSummary(true);
        focusFirstError(errors.map((error) => error.path));
        toast({
          variant: "destructive",
          title: t("forms.toast.errorTitle"),
          description: t("forms.validationFailedList", {
            list: errors.map((error) => `${error.path}: ${error.message}`).join(", "),
          }),
        });
        return;
      }
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: failureText(answer.status, answer.message, options.failure, t),
      });
    } catch {
      // No answer at all (offline, the connection dropped): the form's own words.
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: failureText(0, null, options.failure, t),
      });
    } finally {
      setSubmitting(false);
    }
  };

  /**
   * The submit button stays enabled without a token: the schema requires the token like any
   * field, so a submit without it answers through `onInvalid` and nothing is sent.
   */
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    void form.handleSubmit(send, onInvalid)(event);
  };

  /** Back to the form's own defaults (not to what was typed before it hydrated). */
  const reset = () => form.reset(options.defaultValues);

  return {
    formId: options.formId,
    form,
    onSubmit,
    reset,
    submitting,
    summary,
    setToken,
    botCheck,
    labels,
  };
}

/** `load` run once (again after a failure), and early with `preload`. */
function lazyOperation(load: () => Promise<GuestFormOperation>) {
  let ready: Promise<GuestFormOperation> | null = null;
  const get = () =>
    (ready ??= load().catch((error: unknown) => {
      ready = null;
      throw error;
    }));
  return { get, preload: () => void get().catch(() => undefined) };
}

/**
 * The text of a failed submit: the server's message for a refusal it explained
 * (a 4xx with `{message}`); otherwise, when the server failed (5xx) or could not be reached
 * (status 0), the form's 'Failed to submit …' followed by its 'There was a problem…'.
 */
export function failureText(
  status: number,
  message: unknown,
  failure: { failed: string; fallback?: string },
  t: (key: string, params?: Record<string, unknown>) => string,
): string {
  if (status >= 400 && status < 500 && typeof message === "string" && message) return message;
  return failure.fallback
    ? t("forms.failedWithFallback", { failed: failure.failed, fallback: failure.fallback })
    : failure.failed;
}

export type GuestFormState<Values extends FieldValues> = ReturnType<typeof useGuestForm<Values>>;

/**
 * The values the form `formId` shows in the page, read from its fields by name and typed like
 * `defaults` (a list from checked boxes, a flag from a checkbox, a whole number); `defaults`
 * when the form is not in the page (the server, a client-side navigation).
 */
export function valuesInPage<Values extends FieldValues>(
  formId: string,
  defaults: DefaultValues<Values>,
): DefaultValues<Values> {
  if (typeof document === "undefined") return defaults;
  const form = document.getElementById(formId);
  if (!(form instanceof HTMLFormElement)) return defaults;
  const values: Record<string, unknown> = { ...defaults };
  for (const [name, fallback] of Object.entries(defaults)) {
    const field = form.elements.namedItem(name);
    if (!field) continue;
    if (Array.isArray(fallback)) {
      values[name] = [...form.querySelectorAll<HTMLInputElement>("input[type=checkbox]")]
        .filter((box) => box.name === name && box.checked)
        .map((box) => box.value);
    } else if (typeof fallback === "boolean") {
      values[name] = field instanceof HTMLInputElement ? field.checked : fallback;
    } else if (typeof fallback === "number") {
      const parsed = Number.parseInt("value" in field ? String(field.value) : "", 10);
      values[name] = Number.isNaN(parsed) ? fallback : parsed;
    } else if (field instanceof RadioNodeList) {
      values[name] = field.value || fallback;
    } else if ("value" in field) {
      values[name] = field.value;
    }
  }
  return values as DefaultValues<Values>;
}

function fieldLabels(fields: readonly string[], t: (key: string) => string) {
  return Object.fromEntries(fields.map((name) => [name, t(`forms.fields.${name}`)])) as Record<
    string,
    string
  >;
}

/** Field errors in the order their fields appear on the page. */
function orderedErrors(errors: FieldErrors): [string, string][] {
  const entries = Object.entries(errors)
    .filter(([, error]) => typeof error?.message === "string")
    .map(([name, error]) => [name, String(error?.message)] as [string, string]);
  if (typeof document === "undefined") return entries;
  const order = [...document.querySelectorAll<HTMLElement>("[data-field]")].map(
    (element) => element.dataset.field,
  );
  const position = (name: string) => {
    const index = order.indexOf(name);
    return index === -1 ? Number.MAX_SAFE_INTEGER : index;
  };
  return entries.sort(([a], [b]) => position(a) - position(b));
}
