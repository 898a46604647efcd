import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import * as tokenomics from "#content/tokenomics.ts";

/**
 * Italian addresses the reader formally (Lei, decisions: a luxury service), everywhere: the
 * interface messages (public, staff and owner areas, and the mails built from them) and the
 * content (catalogue, FAQ, whitepaper, team, roadmap, home, tokenomics labels). The courtesy
 * forms are capitalised (Lei, La, Le, Suo, Sua). These tests walk every Italian string in the
 * repository and fail on the informal address (tu or voi).
 */

const ROOT = join(import.meta.dirname, "..");
const LOCALE_DIR = join(ROOT, "i18n", "locales", "it");
const CONTENT_DIR = join(ROOT, "content");

interface ItalianText {
  /** Where the string lives: file and JSON path. */
  where: string;
  text: string;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Every string below `value`; `italian` says whether the walk is inside Italian text yet. */
function collect(value: unknown, where: string, italian: boolean, out: ItalianText[]): void {
  if (typeof value === "string") {
    if (italian) out.push({ where, text: value });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => collect(item, `${where}[${index}]`, italian, out));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      collect(item, `${where}.${key}`, italian || key === "it", out);
    }
  }
}

function filesUnder(dir: string, extension: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, "utf8")) as Json;
}

/** The interface messages: every string of every file under i18n/locales/it. */
function messageTexts(): ItalianText[] {
  const out: ItalianText[] = [];
  for (const file of filesUnder(LOCALE_DIR, ".json")) {
    collect(readJson(file), relative(ROOT, file), true, out);
  }
  return out;
}

/**
 * The content: in content/**.json every string under an `it` key, and whole files that are
 * Italian by name (`*.it.json` or under an `it/` folder); the tokenomics labels likewise.
 */
function contentTexts(): ItalianText[] {
  const out: ItalianText[] = [];
  for (const file of filesUnder(CONTENT_DIR, ".json")) {
    const name = relative(ROOT, file);
    const italianFile = /(^|[/.])it[/.]/.test(relative(CONTENT_DIR, file));
    collect(readJson(file), name, italianFile, out);
  }
  collect(tokenomics, "content/tokenomics.ts", false, out);
  return out;
}

// Letters, not ASCII \b: "è", "à" and the apostrophes of Italian elision must count as such.
const W = "\\p{L}\\p{N}_";
const word = (alternatives: string) =>
  new RegExp(`(?<![${W}])(?:${alternatives})(?![${W}])`, "giu");

/** Second-person singular pronouns, possessives and verbs, and the voi forms. */
const INFORMAL_WORDS = word(
  [
    "tu|ti|te|tuo|tua|tuoi|tue",
    "puoi|hai|sei|vuoi|devi|sai|vai|fai|stai",
    "potrai|riceverai|troverai|sarai|avrai|dovrai|vorrai|vedrai|scoprirai|farai",
    "voi|vostro|vostra|vostri|vostre|potete|volete|dovete|avete|siete|sapete",
    "scoprite|scegliete|contattateci",
    "unisciti|iscriviti|seguici|indicaci|contattaci|scrivici|raccontaci|scaricalo",
    "assicurati|concediti|goditi|lasciati|immergiti|rilassati",
  ].join("|"),
);

/** "t’" for "ti" before a vowel (t’invieremo); "tutt’", "quest’" are preceded by a letter. */
const ELIDED_TI = new RegExp(`(?<![${W}])t['’](?=\\p{L})`, "giu");

/** "vi" as the object "you" (the voi address), not the locative "there" (vi soggiorna). */
const VI_ADDRESS = new RegExp(
  `(?<![${W}])vi (?:\\p{L}+(?:ate|ete|ite|iate)|accompagna|aspettiamo|attende|attendono|` +
    `invitiamo|contatteremo|contatterà|ricontatteremo|offriamo|offre|proponiamo|ringraziamo|` +
    `preghiamo|chiediamo|invieremo|diamo|auguriamo|accoglie|accogliamo)(?![${W}])`,
  "giu",
);

/**
 * Second-person imperatives (tu, and a few voi). Many are also a third-person verb, a noun or
 * a participle ("l’ospite invia", "la modifica", "partenze prenotate"), so they count only
 * where a command stands: at the start of the text or of a sentence or clause.
 */
const IMPERATIVES = [
  "accedi|annulla|apri|applica|aggiungi|avvisa|azzera|cambia|cancella|carica|cerca|chiedi|chiudi",
  "clicca|compila|condividi|conferma|contatta|controlla|correggi|crea|elimina|esci|esplora",
  "filtra|gestisci|indica|inserisci|invia|leggi|modifica|mostra|parla|partecipa|premi|prenota|prova",
  "reimposta|ricarica|richiedi|rimuovi|riprova|rivendica|salva|scarica|scarta|scegli|scopri|scrivi",
  "seleziona|soggiorna|torna|trascina|trova|usa|vedi|verifica|visualizza",
  "soggiornate|percorrete|incontrate|esplorate|prenotate",
].join("|");
/** What follows a noun, not a command: "Verifica in corso", "Modifica annullata". */
const NOUN_FOLLOWS =
  "\\s+(?:in corso|non riuscit|richiest|scadut|annullat|completat|dell|del |dei |degli )";
const IMPERATIVE = new RegExp(
  `(?:^|[.!?:;«“"(—–]\\s*)(${IMPERATIVES})(?![${W}])(?!${NOUN_FOLLOWS})`,
  "giu",
);

/**
 * Legitimate uses the patterns above would catch, each named by where it is and what it says.
 * Checked by phrase, so a new informal text in the same place still fails.
 */
const ALLOWED: readonly { where: RegExp; phrase: RegExp; why: string }[] = [
  {
    where: /^content\//,
    phrase: word(
      "sei (?:camere|generazioni|mesi|settimane|giorni|ospiti|ettari|secoli|anni|ore|stanze|suite|letti|persone)",
    ),
    why: "sei, the number six",
  },
  {
    where: /^content\//,
    phrase: word("(?:le|delle|alle|dalle|nelle|sulle|tutte e|da|in|per|con) sei"),
    why: "sei, the number six",
  },
  {
    where: /^i18n\/locales\/it\/common\.json\.forms\.fields\.turnstileToken$/,
    phrase: /^Verifica$/u,
    why: "the field's name (the verification), not a command",
  },
];

/** The informal phrases in a text, after removing the allowed ones. */
function informalPhrases({ where, text }: ItalianText): string[] {
  let rest = text;
  for (const allowed of ALLOWED) {
    if (allowed.where.test(where)) rest = rest.replace(allowed.phrase, " ");
  }
  return [
    ...[...rest.matchAll(INFORMAL_WORDS)].map((match) => match[0]),
    ...[...rest.matchAll(ELIDED_TI)].map((match) => match[0]),
    ...[...rest.matchAll(VI_ADDRESS)].map((match) => match[0]),
    ...[...rest.matchAll(IMPERATIVE)].map((match) => match[1] ?? match[0]),
  ];
}

function offenders(texts: ItalianText[]): string[] {
  return texts.flatMap((text) => {
    const found = informalPhrases(text);
    return found.length === 0 ? [] : [`${text.where}: [${found.join(", ")}] ${text.text}`];
  });
}

describe("Italian addresses the reader formally (Lei)", () => {
  const messages = messageTexts();
  const content = contentTexts();

  it("finds the Italian texts it checks", () => {
    // A walk that found nothing would pass vacuously.
    expect(messages.some((t) => t.where.startsWith("i18n/locales/it/common.json"))).toBe(true);
    expect(messages.some((t) => t.where.startsWith("i18n/locales/it/staff.json"))).toBe(true);
    expect(messages.some((t) => t.where.startsWith("i18n/locales/it/owner.json"))).toBe(true);
    expect(messages.some((t) => t.where.includes(".mail."))).toBe(true);
    expect(content.some((t) => t.where.startsWith("content/properties/"))).toBe(true);
    expect(content.some((t) => t.where.startsWith("content/faq.json"))).toBe(true);
    expect(content.some((t) => t.where.startsWith("content/tokenomics.ts"))).toBe(true);
  });

  it("recognises the informal address it is meant to reject", () => {
    const informal = [
      "Scopri le nostre dimore e richiedi il tuo soggiorno.",
      "Non sai quale dimora fa per te?",
      "Il nostro team ti proporrà le dimore più adatte.",
      "Hai dimenticato la password?",
      "Soggiornate nei castelli e incontrate altri membri.",
      "Nella vostra valuta, ovunque vi troviate.",
      "Iscriviti alla newsletter.",
      "Prenota questa proprietà",
      "Inserisci l’indirizzo email del proprietario",
      "Nulla è cambiato: annulla prima la modifica più recente, oppure modifica il campo.",
      "Percorrete le sale e incontrate altri membri.",
      "T’invieremo un codice.",
    ];
    const missed = informal.filter((text) => informalPhrases({ where: "x", text }).length === 0);
    expect(missed).toEqual([]);
  });

  it("accepts the formal address and the look-alikes of ordinary Italian", () => {
    const formal = [
      "Scopra le nostre dimore e richieda il Suo soggiorno.",
      "Il nostro team Le proporrà le dimore più adatte.",
      "Prenoti questa dimora",
      "Lo staff verifica ogni richiesta e la modifica resta nella cronologia.",
      "Verifica in corso…",
      "Un tipo di tè servito nella sala dei tessuti.",
      "Tutt’altro che rustica, quest’ala è la più antica.",
      "Chi vi soggiorna trova la biblioteca del cardinale.",
      "Visita guidata agli affreschi, dai banchetti di gennaio alle partenze prenotate.",
      "L’ospite sceglie una dimora e invia la richiesta.",
      "La Sua richiesta è stata confermata.",
    ];
    const flagged = formal.filter((text) => informalPhrases({ where: "x", text }).length > 0);
    expect(flagged).toEqual([]);
  });

  it("in the interface messages (public site, staff and owner areas, mail)", () => {
    expect(offenders(messages)).toEqual([]);
  });

  it("in the content (catalogue, FAQ, whitepaper, team, roadmap, home, tokenomics)", () => {
    expect(offenders(content)).toEqual([]);
  });

  it("capitalises the courtesy pronoun Lei", () => {
    // "lei" in lower case would be "she"; the texts address the reader, so it is the courtesy
    // form written the other way.
    const lower = word("lei");
    const found = [...messages, ...content]
      .filter(({ text }) => [...text.matchAll(lower)].some((match) => match[0] === "lei"))
      .map(({ where, text }) => `${where}: ${text}`);
    expect(found).toEqual([]);
  });
});
