import { z } from "zod";
import { isStorableText, UNSTORABLE_TEXT } from "../storable-text.ts";
import { MESSAGE_MAX_LENGTH } from "./message-limits.ts";

/**
 * A message's text, from staff or the guest: plain text (shown as text, never as markup),
 * trimmed, 1 to MESSAGE_MAX_LENGTH characters. The messages are translation keys, so the form
 * and the API say the same thing in the reader's language.
 */
export const MessageBodySchema = z
  .string("conversation.errors.bodyRequired")
  .trim()
  .min(1, "conversation.errors.bodyRequired")
  .max(MESSAGE_MAX_LENGTH, "conversation.errors.bodyTooLong")
  .refine(isStorableText, UNSTORABLE_TEXT);

/** What staff send: the text, and the newest message they had seen (to catch a colleague's). */
export const StaffMessageInputSchema = z
  .object({
    body: MessageBodySchema,
    lastSeenMessageId: z
      .number()
      .int()
      .min(0)
      .nullable()
      .optional()
      .describe(
        "The id of the newest message the writer had seen (null: none). When another member of staff has written to the guest since, nothing is sent: 409. Leave it out to send anyway.",
      ),
  })
  .meta({ id: "NewStaffMessage" });
export type StaffMessageInput = z.infer<typeof StaffMessageInputSchema>;

/** What the guest sends from their status page: the text and the bot-check token. */
export const GuestMessageInputSchema = z
  .object({
    body: MessageBodySchema,
    turnstileToken: z
      .string()
      .max(10_000)
      .optional()
      .describe("The bot-check token (else the X-Bot-Token header)"),
  })
  .meta({ id: "NewGuestMessage" });
export type GuestMessageInput = z.infer<typeof GuestMessageInputSchema>;
