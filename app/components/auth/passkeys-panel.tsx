import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { KeyRound, Trash2 } from "lucide-react";
import {
  addOwnerPasskey,
  addStaffPasskey,
  listOwnerPasskeys,
  listStaffPasskeys,
  PASSKEY_NAME_MAX,
  removeOwnerPasskey,
  removeStaffPasskey,
  startOwnerPasskeyRegistration,
  startStaffPasskeyRegistration,
} from "#domain/auth/passkeys.contract.ts";
import { callApi } from "#app/api-client.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { formatMoment } from "../staff/format.ts";
import { Alert, AlertTitle } from "../ui/alert.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { CONTROL_CLASS, Field, InputField } from "../ui/field.tsx";
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "../ui/table.tsx";
import { type PasskeyRole, passkeyTexts, useWebAuthnSupport } from "./passkey-sign-in-button.tsx";

interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * A person's passkeys: the list (label, added, last used), a form to add one with a
 * label (staff also give their password again) and Remove behind a confirmation. The WebAuthn
 * library loads when a passkey is added, not with the page.
 */
export function PasskeysPanel({
  role,
  onAdded,
}: {
  role: PasskeyRole;
  /** After a passkey is saved (an enrolment session is then complete). */
  onAdded?: (added: { recoveryCodes?: string[] }) => void;
}) {
  const { t, i18n } = useTranslation();
  const texts = passkeyTexts(role);
  const supported = useWebAuthnSupport();
  const needsPassword = role === "staff";
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [removePassword, setRemovePassword] = useState("");
  const [removeProblem, setRemoveProblem] = useState<string | null>(null);
  const language = { language: i18n.language };

  // The list is read on opening and after each change (`version`).
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((current) => current + 1);
  useEffect(() => {
    const controller = new AbortController();
    const options = { language: i18n.language, signal: controller.signal };
    void (
      role === "staff"
        ? callApi(listStaffPasskeys, {}, options)
        : callApi(listOwnerPasskeys, {}, options)
    ).then((answer) => {
      if (controller.signal.aborted) return;
      if (answer.ok) setPasskeys(answer.data.passkeys);
      else setProblem(answer.message ?? t(`${texts}.failed`));
    });
    return () => controller.abort();
  }, [role, i18n.language, t, texts, version]);

  const add = async () => {
    setProblem(null);
    if (!name.trim() || (needsPassword && !password)) return setProblem(t(`${texts}.fillIn`));
    setBusy(true);
    try {
      const options =
        role === "staff"
          ? await callApi(startStaffPasskeyRegistration, { body: { password } }, language)
          : await callApi(startOwnerPasskeyRegistration, {}, language);
      if (!options.ok) return setProblem(options.message ?? t(`${texts}.failed`));
      const { startRegistration } = await import("@simplewebauthn/browser");
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.data as never });
      } catch {
        return setProblem(t(`${texts}.cancelled`));
      }
      const body = { response: response as never, name: name.trim() };
      // A staff account's first factor comes with its recovery codes (shown once by the page).
      let added: { name: string; recoveryCodes?: string[] };
      if (role === "staff") {
        const saved = await callApi(addStaffPasskey, { body }, language);
        if (!saved.ok) return setProblem(saved.message ?? t(`${texts}.failed`));
        added = { name: saved.data.passkey.name, recoveryCodes: saved.data.recoveryCodes };
      } else {
        const saved = await callApi(addOwnerPasskey, { body }, language);
        if (!saved.ok) return setProblem(saved.message ?? t(`${texts}.failed`));
        added = { name: saved.data.passkey.name };
      }
      setName("");
      setPassword("");
      toast({ title: t(`${texts}.added`, { name: added.name }) });
      reload();
      onAdded?.({ recoveryCodes: added.recoveryCodes });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!removing) return;
    setRemoveProblem(null);
    setBusy(true);
    try {
      const params = { id: removing.id };
      const answer =
        role === "staff"
          ? await callApi(
              removeStaffPasskey,
              { params, body: { password: removePassword } },
              language,
            )
          : await callApi(removeOwnerPasskey, { params }, language);
      if (!answer.ok) return setRemoveProblem(answer.message ?? t(`${texts}.failed`));
      toast({ title: t(`${texts}.removed`, { name: removing.name }) });
      setRemoving(null);
      setRemovePassword("");
      reload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="passkeys-title" className="grid gap-6" data-testid="passkeys-panel">
      <div>
        <h2 id="passkeys-title" className="text-heritage text-2xl font-semibold">
          {t(`${texts}.title`)}
        </h2>
        <p className="text-muted mt-2">{t(`${texts}.intro`)}</p>
      </div>
      {passkeys && passkeys.length === 0 && <p>{t(`${texts}.empty`)}</p>}
      {passkeys && passkeys.length > 0 && (
        <Table>
          <TableCaption>{t(`${texts}.caption`)}</TableCaption>
          <TableHeader>
            <TableRow>
              <TableHead>{t(`${texts}.name`)}</TableHead>
              <TableHead>{t(`${texts}.created`)}</TableHead>
              <TableHead>{t(`${texts}.lastUsed`)}</TableHead>
              <TableHead>
                <span className="sr-only">{t(`${texts}.actions`)}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {passkeys.map((passkey) => (
              <TableRow key={passkey.id} data-testid="passkey-row">
                <TableCell>{passkey.name}</TableCell>
                <TableCell>{formatMoment(passkey.createdAt, i18n.language)}</TableCell>
                <TableCell>
                  {passkey.lastUsedAt
                    ? formatMoment(passkey.lastUsedAt, i18n.language)
                    : t(`${texts}.never`)}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    type="button"
                    variant="destructiveGhost"
                    size="sm"
                    onClick={() => setRemoving(passkey)}
                  >
                    <Trash2 aria-hidden className="size-4" />
                    {t(`${texts}.remove`, { name: passkey.name })}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {supported ? (
        <form
          method="post"
          noValidate
          className="grid max-w-md gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <h3 className="text-heritage text-lg font-semibold">{t(`${texts}.addTitle`)}</h3>
          {problem && (
            <Alert data-testid="passkey-problem">
              <AlertTitle>{problem}</AlertTitle>
            </Alert>
          )}
          <Field label={t(`${texts}.name`)} hint={t(`${texts}.nameHint`)}>
            {(control) => (
              <input
                {...control}
                type="text"
                required
                maxLength={PASSKEY_NAME_MAX}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                className={CONTROL_CLASS}
                data-testid="passkey-name"
              />
            )}
          </Field>
          {needsPassword && (
            <InputField
              label={t(`${texts}.password`)}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={setPassword}
              data-testid="passkey-password"
            />
          )}
          <Button type="submit" disabled={isBusy} data-testid="passkey-add">
            <KeyRound aria-hidden className="size-5" />
            {isBusy ? t(`${texts}.adding`) : t(`${texts}.add`)}
          </Button>
        </form>
      ) : (
        <p className="text-muted">{t(`${texts}.notSupported`)}</p>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRemoving(null);
            setRemoveProblem(null);
          }
        }}
        title={t(`${texts}.removeTitle`)}
        description={t(`${texts}.removeText`, { name: removing?.name ?? "" })}
        cancelLabel={t(`${texts}.cancel`)}
        confirmLabel={t(`${texts}.confirmRemove`)}
        onConfirm={() => void remove()}
        busy={isBusy}
      >
        {removeProblem && (
          <Alert>
            <AlertTitle>{removeProblem}</AlertTitle>
          </Alert>
        )}
        {needsPassword && (
          <InputField
            label={t(`${texts}.password`)}
            type="password"
            autoComplete="current-password"
            required
            value={removePassword}
            onChange={setRemovePassword}
            data-testid="passkey-remove-password"
          />
        )}
      </ConfirmDialog>
    </section>
  );
}
