import { cn } from "./cn.ts";

/** One message as a thread draws it: who, when (already formatted), what, and on which side. */
export interface ThreadMessage {
  id: number;
  /** The reader's own side's messages sit on the right, the other side's on the left. */
  side: "own" | "other";
  author: string;
  /** The moment, formatted for the reader; `dateTime` is the ISO value behind it. */
  when: string;
  dateTime: string;
  /** Plain text: drawn as text, line breaks kept, never as markup. */
  body: string;
  /** A badge beside the author (e.g. 'Unread'). */
  badge?: string;
}

/**
 * A conversation, oldest first: each message with its author and time, the reader's side on
 * the right. Used by the staff details (staff writing to the guest) and the guest's status
 * page (the guest replying). An empty thread shows `emptyText`.
 */
export function MessageThread({
  messages,
  emptyText,
  label,
  className,
}: {
  messages: readonly ThreadMessage[];
  emptyText: string;
  /** The list's accessible name. */
  label: string;
  className?: string;
}) {
  if (messages.length === 0)
    return (
      <p data-slot="message-thread" className={cn("text-muted text-sm", className)}>
        {emptyText}
      </p>
    );
  return (
    <ol
      data-slot="message-thread"
      aria-label={label}
      className={cn("grid max-h-[28rem] gap-3 overflow-y-auto pr-1", className)}
      data-testid="message-thread"
    >
      {messages.map((message) => (
        <li
          key={message.id}
          data-side={message.side}
          className={cn(
            "max-w-[85%] rounded-sm border px-4 py-3 text-sm",
            message.side === "own"
              ? "border-heritage/25 bg-heritage/5 justify-self-end"
              : "border-gold/40 bg-paper justify-self-start",
          )}
        >
          <p className="text-muted flex flex-wrap items-baseline gap-x-2 text-xs">
            <span className="text-ink font-semibold">{message.author}</span>
            <time dateTime={message.dateTime}>{message.when}</time>
            {message.badge && (
              <span className="bg-burgundy rounded-full px-2 py-0.5 text-[0.7rem] font-semibold text-white">
                {message.badge}
              </span>
            )}
          </p>
          <p className="text-ink mt-1 break-words whitespace-pre-wrap">{message.body}</p>
        </li>
      ))}
    </ol>
  );
}
