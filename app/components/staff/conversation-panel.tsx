import { useCallback, useEffect, useId, useState } from "react";
import { useRevalidator } from "react-router";
import { useTranslation } from "react-i18next";
import type { Message } from "#domain/conversation/messages.contract.ts";
import { STAFF_MESSAGE_OPERATIONS } from "#domain/conversation/messages.contract.ts";
import { MESSAGE_MAX_LENGTH } from "#domain/conversation/message-limits.ts";
import type { RequestDetail } from "#domain/staff/inbox.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { TextAreaField } from "../ui/field.tsx";
import { MessageThread, type ThreadMessage } from "../ui/message-thread.tsx";
import { formatMoment } from "./format.ts";

/**
 * The conversation with the guest in the request's details: the thread (reading it
 * marks the guest's messages read for all staff) and a compose box. A message goes with the id
 * of the newest one on screen: if a colleague wrote to the guest since, the server refuses it
 * (409), the thread shows what they wrote, and 'Send anyway' sends the text as it is.
 */
export function ConversationPanel({ detail }: { detail: RequestDetail }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const headingId = useId();
  const operations = STAFF_MESSAGE_OPERATIONS[detail.kind];
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const hadUnread = detail.unreadMessages > 0;

  useEffect(() => {
    const controller = new AbortController();
    void callApi(
      operations.list,
      { params: { id: detail.id } },
      { language: i18n.language, signal: controller.signal },
    ).then((answer) => {
      if (controller.signal.aborted) return;
      if (answer.ok) {
        setMessages(answer.data);
        // The inbox behind shows the unread count: reading the thread brought it to 0.
        if (hadUnread) void revalidator.revalidate();
      } else setError(answer.message ?? t("staff.conversation.failed"));
    });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read once per request
  }, [detail.id]);

  const send = useCallback(
    async (anyway: boolean) => {
      if (sending || messages === null) return;
      if (!body.trim()) {
        setError(t("conversation.errors.bodyRequired"));
        return;
      }
      setSending(true);
      const answer = await callApi(
        operations.send,
        {
          params: { id: detail.id },
          body: anyway ? { body } : { body, lastSeenMessageId: messages.at(-1)?.id ?? null },
        },
        { language: i18n.language },
      );
      setSending(false);
      if (answer.ok) {
        setMessages(answer.data);
        setBody("");
        setError(null);
        setConflict(null);
        toast({ title: t("staff.conversation.sent") });
        return;
      }
      if (answer.status === 409 && answer.data) {
        setMessages(answer.data.messages);
        setConflict(answer.data.message);
        return;
      }
      // Nothing is lost: the text stays in the box.
      setError(
        answer.errors.find((issue) => issue.path === "body")?.message ??
          answer.message ??
          t("staff.conversation.failed"),
      );
    },
    [body, detail.id, i18n.language, messages, operations.send, sending, t],
  );

  const thread: ThreadMessage[] = (messages ?? []).map((message) => ({
    id: message.id,
    side: message.author === "staff" ? "own" : "other",
    author:
      message.author === "staff"
        ? (message.authorName ?? t("staff.conversation.heading"))
        : `${detail.firstName} (${t("staff.conversation.guest")})`,
    when: formatMoment(message.createdAt, i18n.language),
    dateTime: message.createdAt,
    body: message.body,
  }));

  return (
    <section
      aria-labelledby={headingId}
      className="border-gold/30 bg-paper rounded-sm border p-5"
      data-testid="conversation"
    >
      <h3 id={headingId} className="font-display text-heritage text-xl font-semibold">
        {t("staff.conversation.heading")}
        {hadUnread && (
          <span className="bg-burgundy ml-2 rounded-full px-2 py-0.5 align-middle font-sans text-xs font-semibold text-white">
            {t("staff.conversation.unread", { count: detail.unreadMessages })}
          </span>
        )}
      </h3>
      <p className="text-muted mt-1 text-sm">{t("staff.conversation.hint")}</p>
      <div className="mt-4">
        {messages === null ? (
          <p className="text-muted text-sm" aria-busy>
            …
          </p>
        ) : (
          <MessageThread
            messages={thread}
            emptyText={t("staff.conversation.empty")}
            label={t("staff.conversation.heading")}
          />
        )}
      </div>
      <form
        method="post"
        onSubmit={(event) => {
          event.preventDefault();
          void send(false);
        }}
        noValidate
        className="mt-4 grid gap-3"
      >
        {conflict && (
          <Alert variant="warning">
            <AlertTitle>{conflict}</AlertTitle>
            <Button
              type="button"
              size="sm"
              variant="outline"
              className="mt-2"
              disabled={sending}
              onClick={() => void send(true)}
            >
              {t("staff.conversation.sendAnyway")}
            </Button>
          </Alert>
        )}
        <TextAreaField
          label={t("staff.conversation.composeLabel")}
          hint={t("conversation.replyHint", { max: MESSAGE_MAX_LENGTH })}
          error={error && <span role="alert">{error}</span>}
          value={body}
          onValueChange={(text) => {
            setBody(text);
            if (error) setError(null);
          }}
          rows={4}
          maxLength={MESSAGE_MAX_LENGTH}
        />
        <Button
          type="submit"
          size="sm"
          className="justify-self-start"
          disabled={sending || messages === null}
        >
          {sending ? t("staff.conversation.sending") : t("staff.conversation.send")}
        </Button>
      </form>
    </section>
  );
}
