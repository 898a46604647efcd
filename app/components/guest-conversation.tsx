import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BotCheckClientConfig } from "#domain/bot-check/config.ts";
import type { Message } from "#domain/conversation/messages.contract.ts";
import { MESSAGE_MAX_LENGTH } from "#domain/conversation/message-limits.ts";
import { LANGUAGE_TAGS, isLanguage } from "#i18n/config.ts";
import { callApi } from "../api-client.ts";
import { BotCheck, type BotCheckHandle } from "./forms/bot-check.tsx";
import { Button } from "./ui/button.tsx";
import { TextAreaField } from "./ui/field.tsx";
import { MessageThread, type ThreadMessage } from "./ui/message-thread.tsx";

function formatWhen(value: string, language: string): string {
  return new Intl.DateTimeFormat(isLanguage(language) ? LANGUAGE_TAGS[language] : language, {
    dateStyle: "medium",
    // As the page's other times, in UTC and saying so: the same text on the server and after
    // hydration.
    timeStyle: "long",
    timeZone: "UTC",
  }).format(new Date(value));
}

/**
 * The conversation on the guest's status page: what staff wrote and what the guest
 * replied, and a reply box behind the forms' bot check. A refused reply keeps its text in the
 * box and says why, in the page's language.
 */
export function GuestConversation({
  token,
  initialMessages,
  botCheck,
}: {
  token: string;
  initialMessages: Message[];
  botCheck: BotCheckClientConfig | null;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const botCheckRef = useRef<BotCheckHandle>(null);
  const [messages, setMessages] = useState(initialMessages);
  const [body, setBody] = useState("");
  const [botToken, setBotToken] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const thread: ThreadMessage[] = messages.map((message) => ({
    id: message.id,
    side: message.author === "guest" ? "own" : "other",
    author:
      message.author === "guest"
        ? t("conversation.you")
        : message.authorName
          ? t("conversation.staffAuthor", { name: message.authorName })
          : t("conversation.team"),
    when: formatWhen(message.createdAt, i18n.language),
    dateTime: message.createdAt,
    body: message.body,
  }));

  // Pressed Send before the bot check was done: the message goes as soon as it is.
  const waitingForCheck = useRef(false);

  const send = async (checkToken: string) => {
    setSending(true);
    const { replyToRequest } = await import("#domain/conversation/messages.contract.ts");
    const answer = await callApi(
      replyToRequest,
      { params: { token }, body: { body, turnstileToken: checkToken } },
      { language: i18n.language },
    );
    setSending(false);
    // A token is good for one message: the next needs a fresh check, whatever the answer.
    botCheckRef.current?.reset();
    if (answer.ok) {
      setMessages(answer.data);
      setBody("");
      setError(null);
      setNotice(t("conversation.sent"));
      return;
    }
    setNotice(null);
    setError(
      answer.errors.find((issue) => issue.path === "body")?.message ??
        answer.message ??
        t("conversation.failed"),
    );
  };

  const onToken = (value: string | null) => {
    setBotToken(value);
    if (value && waitingForCheck.current) {
      waitingForCheck.current = false;
      void send(value);
    }
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setNotice(null);
    if (!body.trim()) {
      waitingForCheck.current = false;
      setError(t("conversation.errors.bodyRequired"));
      return;
    }
    setError(null);
    if (!botToken) {
      waitingForCheck.current = true;
      setNotice(t("conversation.verifying"));
      botCheckRef.current?.start();
      return;
    }
    void send(botToken);
  };

  return (
    <section
      aria-labelledby={headingId}
      className="border-gold/30 bg-paper rounded-sm border p-6 sm:p-8"
      data-testid="guest-conversation"
    >
      <h2 id={headingId} className="font-display text-heritage text-3xl font-semibold">
        {t("conversation.heading")}
      </h2>
      <p className="text-muted mt-2 text-sm">{t("conversation.intro")}</p>
      <MessageThread
        className="mt-6"
        messages={thread}
        emptyText={t("conversation.empty")}
        label={t("conversation.heading")}
      />
      <form method="post" onSubmit={submit} noValidate className="mt-6 grid gap-4">
        <TextAreaField
          label={t("conversation.replyLabel")}
          hint={t("conversation.replyHint", { max: MESSAGE_MAX_LENGTH })}
          error={error && <span role="alert">{error}</span>}
          value={body}
          onValueChange={(text) => {
            setBody(text);
            if (error) setError(null);
          }}
          rows={4}
          maxLength={MESSAGE_MAX_LENGTH}
          name="body"
        />
        {botCheck && (
          <div className="grid gap-1">
            <p className="text-muted text-xs">{t("conversation.botCheck")}</p>
            <BotCheck ref={botCheckRef} config={botCheck} onToken={onToken} />
          </div>
        )}
        {notice && (
          <p role="status" className="text-heritage text-sm font-medium">
            {notice}
          </p>
        )}
        <Button type="submit" className="justify-self-start" disabled={sending}>
          {sending ? t("conversation.sending") : t("conversation.send")}
        </Button>
      </form>
    </section>
  );
}
