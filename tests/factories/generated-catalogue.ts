/**
 * A synthetic catalogue at scale, for the catalogue bench (1,000,000 estates on PostgreSQL,
 * 10,000 on PGlite) and for the plan test (a few thousand in PGlite). Rows are made inside the
 * database by `INSERT … SELECT generate_series`, so nothing travels over the wire but small
 * vocabulary tables: that is faster than COPY from this process, and it runs the same on both
 * backends (the pg driver has no COPY streams installed here, PGlite none at all).
 *
 * Every value derives from the estate's id through `hashint4extended(id, seed)`, so a run is
 * reproducible and the four translations of an estate agree (one name, one place, one set of
 * amenities). Distributions are meant to give the filters and the text search a realistic
 * selectivity: eight regions of unequal size, 3-80 bedrooms with a long tail, a guest capacity
 * of about two per bedroom, amenities from 6% (city) to 70% (garden) and tied to the terrain,
 * 15% members-only, and names built from 960 place names (about one estate in a thousand each)
 * and 8 kinds of house (5%-24%) in English, French, Italian and Chinese.
 */
import { sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { AMENITY_KEYS, REGIONS } from "#domain/catalogue/catalogue-keys.ts";
import { chineseBigrams } from "#domain/catalogue/search-text.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import { ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH } from "#domain/media/artwork.ts";
import { LANGUAGES, type Language } from "#i18n/config.ts";

type Texts = Record<Language, string>;

/** Place names: a prefix and a suffix in a region's manner, with a Chinese transliteration. */
interface Flavour {
  prefixes: [string, string][];
  suffixes: [string, string][];
}

// prettier-ignore
const FLAVOURS: Record<"en" | "fr" | "it" | "de" | "es", Flavour> = {
  en: {
    prefixes: [["Ash", "阿什"], ["Bel", "贝尔"], ["Carl", "卡尔"], ["Dun", "邓"], ["Elm", "埃尔姆"], ["Fair", "费尔"], ["Glen", "格伦"], ["Hart", "哈特"], ["Kings", "金斯"], ["Long", "朗"], ["Marl", "马尔"], ["North", "诺斯"], ["Oak", "奥克"], ["Raven", "雷文"], ["Stan", "斯坦"], ["Wood", "伍德"]],
    suffixes: [["ford", "福德"], ["ton", "顿"], ["wick", "威克"], ["combe", "库姆"], ["ley", "利"], ["bury", "伯里"], ["more", "莫尔"], ["field", "菲尔德"], ["hurst", "赫斯特"], ["worth", "沃思"], ["dale", "代尔"], ["gate", "盖特"]],
  },
  fr: {
    prefixes: [["Beau", "博"], ["Belle", "贝勒"], ["Mont", "蒙"], ["Roche", "罗什"], ["Ville", "维尔"], ["Font", "丰"], ["Clair", "克莱尔"], ["Haute", "奥特"], ["Bois", "布瓦"], ["Chante", "尚特"], ["Vaux", "沃"], ["Pierre", "皮埃尔"], ["Fleur", "弗勒尔"], ["Mer", "梅尔"], ["Grand", "格朗"], ["Val", "瓦尔"]],
    suffixes: [["lieu", "略"], ["mont", "蒙"], ["fort", "福尔"], ["ville", "维尔"], ["val", "瓦尔"], ["pré", "普雷"], ["bois", "布瓦"], ["roc", "罗克"], ["sac", "萨克"], ["court", "库尔"], ["champ", "尚"], ["rive", "里夫"]],
  },
  it: {
    prefixes: [["Monte", "蒙特"], ["Santa", "圣塔"], ["Rocca", "罗卡"], ["Poggio", "波焦"], ["Colle", "科莱"], ["Borgo", "博尔戈"], ["Castel", "卡斯特尔"], ["Fonte", "丰特"], ["Pian", "皮安"], ["Bella", "贝拉"], ["Serra", "塞拉"], ["Mara", "马拉"], ["Campo", "坎波"], ["Valle", "瓦莱"], ["Porto", "波尔托"], ["Casa", "卡萨"]],
    suffixes: [["rosso", "罗索"], ["verde", "韦尔德"], ["bello", "贝洛"], ["fiore", "菲奥雷"], ["chiaro", "基亚罗"], ["lungo", "伦戈"], ["alto", "阿尔托"], ["nuovo", "努奥沃"], ["santo", "桑托"], ["marino", "马里诺"], ["oro", "奥罗"], ["luce", "卢切"]],
  },
  de: {
    prefixes: [["Raben", "拉本"], ["Falken", "法尔肯"], ["Stein", "施泰因"], ["Adler", "阿德勒"], ["Wolfs", "沃尔夫斯"], ["Eisen", "艾森"], ["Hohen", "霍恩"], ["Schwarz", "施瓦茨"], ["Lichten", "利希滕"], ["Rosen", "罗森"], ["Eichen", "艾兴"], ["Greifen", "格赖芬"], ["Sturm", "施图尔姆"], ["Wald", "瓦尔德"], ["Linden", "林登"], ["Hirsch", "希尔施"]],
    suffixes: [["fels", "费尔斯"], ["burg", "堡"], ["berg", "贝格"], ["stein", "施泰因"], ["eck", "埃克"], ["tal", "塔尔"], ["au", "奥"], ["hof", "霍夫"], ["wald", "瓦尔德"], ["horn", "霍恩"], ["see", "泽"], ["bach", "巴赫"]],
  },
  es: {
    prefixes: [["Villa", "比利亚"], ["Monte", "蒙特"], ["Torre", "托雷"], ["Santa", "圣塔"], ["Vall", "巴利"], ["Alta", "阿尔塔"], ["Casa", "卡萨"], ["Fuente", "富恩特"], ["Sierra", "谢拉"], ["Río", "里奥"], ["Costa", "科斯塔"], ["Puerto", "普埃尔托"], ["Quinta", "金塔"], ["Serra", "塞拉"], ["Vista", "比斯塔"], ["Mira", "米拉"]],
    suffixes: [["real", "雷亚尔"], ["dorado", "多拉多"], ["blanca", "布兰卡"], ["verde", "韦尔德"], ["mar", "马尔"], ["sol", "索尔"], ["flor", "弗洛尔"], ["nova", "诺瓦"], ["bela", "贝拉"], ["luz", "卢斯"], ["alegre", "阿莱格雷"], ["viejo", "别霍"]],
  },
};
type FlavourName = keyof typeof FLAVOURS;
const FLAVOUR_NAMES = Object.keys(FLAVOURS) as FlavourName[];
const PLACES_PER_FLAVOUR = 16 * 12;

/** Regions: share of the catalogue, their manner of place names, the country in each language. */
const REGION_FACTS: Record<
  (typeof REGIONS)[number],
  { share: number; flavours: FlavourName[]; country: Texts }
> = {
  italy: {
    share: 25,
    flavours: ["it"],
    country: { en: "Italy", fr: "Italie", it: "Italia", zh: "意大利" },
  },
  france: {
    share: 22,
    flavours: ["fr"],
    country: { en: "France", fr: "France", it: "Francia", zh: "法国" },
  },
  uk: {
    share: 15,
    flavours: ["en"],
    country: { en: "United Kingdom", fr: "Royaume-Uni", it: "Regno Unito", zh: "英国" },
  },
  spain: {
    share: 12,
    flavours: ["es"],
    country: { en: "Spain", fr: "Espagne", it: "Spagna", zh: "西班牙" },
  },
  germany: {
    share: 10,
    flavours: ["de"],
    country: { en: "Germany", fr: "Allemagne", it: "Germania", zh: "德国" },
  },
  portugal: {
    share: 6,
    flavours: ["es"],
    country: { en: "Portugal", fr: "Portugal", it: "Portogallo", zh: "葡萄牙" },
  },
  austria: {
    share: 5,
    flavours: ["de"],
    country: { en: "Austria", fr: "Autriche", it: "Austria", zh: "奥地利" },
  },
  switzerland: {
    share: 5,
    flavours: ["fr", "de"],
    country: { en: "Switzerland", fr: "Suisse", it: "Svizzera", zh: "瑞士" },
  },
};

/** Kinds of house: share, the word in each language, and the illustration's architecture. */
// prettier-ignore
const KINDS: { share: number; words: Texts; architecture: string }[] = [
  { share: 24, words: { en: "Castle", fr: "Château", it: "Castello", zh: "城堡" }, architecture: "castle" },
  { share: 8, words: { en: "Palace", fr: "Palais", it: "Palazzo", zh: "宫殿" }, architecture: "chateau" },
  { share: 20, words: { en: "Villa", fr: "Villa", it: "Villa", zh: "别墅" }, architecture: "villa" },
  { share: 15, words: { en: "Manor", fr: "Manoir", it: "Maniero", zh: "宅邸" }, architecture: "manor" },
  { share: 8, words: { en: "Tower", fr: "Tour", it: "Torre", zh: "塔楼" }, architecture: "tower" },
  { share: 5, words: { en: "Abbey", fr: "Abbaye", it: "Abbazia", zh: "修道院" }, architecture: "manor" },
  { share: 14, words: { en: "Estate", fr: "Domaine", it: "Tenuta", zh: "庄园" }, architecture: "chateau" },
  { share: 6, words: { en: "Lodge", fr: "Pavillon", it: "Casale", zh: "猎舍" }, architecture: "manor" },
];

/** Terrains as the illustrations know them, with a phrase for the summary. */
// prettier-ignore
const TERRAINS: { key: string; texts: Texts }[] = [
  { key: "hills", texts: { en: "among rolling hills", fr: "au milieu des collines", it: "tra dolci colline", zh: "坐落于起伏的丘陵之间" } },
  { key: "coast", texts: { en: "above the sea", fr: "face à la mer", it: "affacciato sul mare", zh: "俯瞰大海" } },
  { key: "lake", texts: { en: "on the shore of a lake", fr: "au bord d'un lac", it: "in riva a un lago", zh: "位于湖畔" } },
  { key: "vineyard", texts: { en: "among vineyards", fr: "au milieu des vignes", it: "tra i vigneti", zh: "坐落于葡萄园之中" } },
  { key: "mountain", texts: { en: "in the mountains", fr: "en pleine montagne", it: "in montagna", zh: "位于群山之中" } },
  { key: "parkland", texts: { en: "in wide parkland", fr: "dans un vaste parc", it: "in un ampio parco", zh: "坐落于广阔的园林之中" } },
];

/** The character of a house; French and Italian phrases that need no agreement. */
// prettier-ignore
const CHARACTERS: Texts[] = [
  { en: "medieval", fr: "du Moyen Âge", it: "medievale", zh: "中世纪" },
  { en: "Renaissance", fr: "de la Renaissance", it: "rinascimentale", zh: "文艺复兴时期" },
  { en: "baroque", fr: "d'époque baroque", it: "in stile barocco", zh: "巴洛克风格" },
  { en: "Georgian", fr: "de style géorgien", it: "in stile georgiano", zh: "乔治王朝风格" },
  { en: "romantic", fr: "au charme romantique", it: "dal fascino romantico", zh: "浪漫" },
  { en: "fortified", fr: "aux remparts intacts", it: "con mura fortificate", zh: "设防" },
  { en: "elegant", fr: "d'une grande élégance", it: "di grande eleganza", zh: "优雅" },
  { en: "secluded", fr: "à l'écart du monde", it: "in un luogo appartato", zh: "幽静" },
  { en: "grand", fr: "aux dimensions grandioses", it: "dalle proporzioni grandiose", zh: "宏伟" },
  { en: "rustic", fr: "au charme rustique", it: "dal fascino rustico", zh: "质朴" },
  { en: "stately", fr: "d'allure majestueuse", it: "dall'aspetto maestoso", zh: "庄严" },
  { en: "ancient", fr: "aux origines anciennes", it: "dalle origini antiche", zh: "古老" },
  { en: "charming", fr: "plein de charme", it: "di grande fascino", zh: "迷人" },
  { en: "noble", fr: "de noble lignée", it: "di nobile lignaggio", zh: "高贵" },
  { en: "carefully restored", fr: "à la restauration soignée", it: "dal restauro accurato", zh: "精心修复" },
  { en: "historic", fr: "riche d'histoire", it: "dalla lunga storia", zh: "历史悠久" },
];

/** A second sentence of the summary. */
// prettier-ignore
const FEATURES: Texts[] = [
  { en: "Ideal for weddings and family gatherings.", fr: "Idéal pour les mariages et les réunions de famille.", it: "Ideale per matrimoni e riunioni di famiglia.", zh: "非常适合举办婚礼和家庭聚会。" },
  { en: "The great hall seats forty for dinner.", fr: "La grande salle accueille quarante convives à dîner.", it: "Il salone accoglie quaranta ospiti a cena.", zh: "大厅可容纳四十人共进晚餐。" },
  { en: "A resident chef cooks with produce from the estate.", fr: "Un chef résident cuisine les produits du domaine.", it: "Uno chef residente cucina i prodotti della tenuta.", zh: "驻场厨师以庄园自产食材烹饪。" },
  { en: "Frescoed ceilings and a private chapel.", fr: "Plafonds peints à fresque et chapelle privée.", it: "Soffitti affrescati e una cappella privata.", zh: "壁画天花板与私人礼拜堂。" },
  { en: "Long walks start at the front door.", fr: "Les longues promenades commencent au pas de la porte.", it: "Le lunghe passeggiate iniziano dalla porta di casa.", zh: "出门即可开始漫长的散步。" },
  { en: "Quiet rooms with views over the valley.", fr: "Des chambres calmes avec vue sur la vallée.", it: "Camere silenziose con vista sulla valle.", zh: "安静的客房可俯瞰山谷。" },
  { en: "A walled kitchen garden supplies the table.", fr: "Un potager clos fournit la table.", it: "Un orto murato rifornisce la tavola.", zh: "围墙菜园为餐桌供应食材。" },
  { en: "Perfect for retreats and long summer holidays.", fr: "Parfait pour les retraites et les longues vacances d'été.", it: "Perfetta per ritiri e lunghe vacanze estive.", zh: "适合静修和漫长的暑假。" },
  { en: "Family portraits line the grand staircase.", fr: "Des portraits de famille bordent le grand escalier.", it: "Ritratti di famiglia lungo lo scalone.", zh: "宏伟的楼梯两侧挂满家族肖像。" },
  { en: "Stables and riding trails across the estate.", fr: "Écuries et sentiers équestres à travers le domaine.", it: "Scuderie e sentieri a cavallo nella tenuta.", zh: "庄园内设有马厩和骑马小径。" },
  { en: "Candlelit dinners in the old cellars.", fr: "Dîners aux chandelles dans les anciennes caves.", it: "Cene a lume di candela nelle antiche cantine.", zh: "在古老的酒窖中享用烛光晚餐。" },
  { en: "Music evenings in the ballroom.", fr: "Soirées musicales dans la salle de bal.", it: "Serate musicali nella sala da ballo.", zh: "在舞厅举办音乐之夜。" },
];

/** Amenity keys (in AMENITY_KEYS order) with their text and base probability. */
// prettier-ignore
const AMENITY_TEXTS: Record<(typeof AMENITY_KEYS)[number], { chance: number; texts: Texts }> = {
  pool: { chance: 0.45, texts: { en: "Heated outdoor pool", fr: "Piscine extérieure chauffée", it: "Piscina esterna riscaldata", zh: "室外恒温泳池" } },
  spa: { chance: 0.25, texts: { en: "Spa with sauna and hammam", fr: "Spa avec sauna et hammam", it: "Spa con sauna e hammam", zh: "设有桑拿和土耳其浴的水疗中心" } },
  gym: { chance: 0.15, texts: { en: "Fitness room", fr: "Salle de sport", it: "Palestra", zh: "健身房" } },
  wine: { chance: 0.3, texts: { en: "Wine cellar with tastings", fr: "Cave à vin et dégustations", it: "Cantina con degustazioni", zh: "酒窖与品酒会" } },
  library: { chance: 0.35, texts: { en: "Library with an open fire", fr: "Bibliothèque avec cheminée", it: "Biblioteca con camino", zh: "带壁炉的图书室" } },
  garden: { chance: 0.7, texts: { en: "Formal gardens", fr: "Jardins à la française", it: "Giardini all'italiana", zh: "规则式花园" } },
  tennis: { chance: 0.15, texts: { en: "Tennis court", fr: "Court de tennis", it: "Campo da tennis", zh: "网球场" } },
  golf: { chance: 0.1, texts: { en: "Golf course nearby", fr: "Golf à proximité", it: "Campo da golf nelle vicinanze", zh: "附近设有高尔夫球场" } },
  beach: { chance: 0.12, texts: { en: "Private beach", fr: "Plage privée", it: "Spiaggia privata", zh: "私人海滩" } },
  mountain: { chance: 0.15, texts: { en: "Mountain trails from the door", fr: "Sentiers de montagne au départ du domaine", it: "Sentieri di montagna dalla porta di casa", zh: "门外即是山间步道" } },
  lake: { chance: 0.12, texts: { en: "Boats on the lake", fr: "Barques sur le lac", it: "Barche sul lago", zh: "湖上泛舟" } },
  city: { chance: 0.06, texts: { en: "Minutes from the city centre", fr: "À quelques minutes du centre-ville", it: "A pochi minuti dal centro città", zh: "距市中心仅数分钟" } },
};
/** Amenities that follow the terrain: near certain on it, rare elsewhere. */
const TERRAIN_AMENITIES: Record<string, string> = {
  beach: "coast",
  mountain: "mountain",
  lake: "lake",
};

// prettier-ignore
const ACTIVITIES: Texts[] = [
  { en: "Hiking", fr: "Randonnée", it: "Escursionismo", zh: "徒步旅行" },
  { en: "Cycling tours", fr: "Balades à vélo", it: "Giri in bicicletta", zh: "骑行游览" },
  { en: "Wine tasting", fr: "Dégustation de vins", it: "Degustazione di vini", zh: "品酒" },
  { en: "Cooking classes", fr: "Cours de cuisine", it: "Corsi di cucina", zh: "烹饪课程" },
  { en: "Horse riding", fr: "Équitation", it: "Equitazione", zh: "骑马" },
  { en: "Fly fishing", fr: "Pêche à la mouche", it: "Pesca a mosca", zh: "飞蝇钓" },
  { en: "Truffle hunting", fr: "Cavage de truffes", it: "Caccia al tartufo", zh: "寻找松露" },
  { en: "Boat trips", fr: "Sorties en bateau", it: "Gite in barca", zh: "乘船游览" },
  { en: "Falconry", fr: "Fauconnerie", it: "Falconeria", zh: "鹰猎" },
  { en: "Museum visits", fr: "Visites de musées", it: "Visite ai musei", zh: "参观博物馆" },
  { en: "Skiing", fr: "Ski", it: "Sci", zh: "滑雪" },
  { en: "Golf lessons", fr: "Leçons de golf", it: "Lezioni di golf", zh: "高尔夫课程" },
  { en: "Birdwatching", fr: "Observation des oiseaux", it: "Birdwatching", zh: "观鸟" },
  { en: "Hot-air ballooning", fr: "Montgolfière", it: "Volo in mongolfiera", zh: "热气球飞行" },
  { en: "Kayaking", fr: "Kayak", it: "Kayak", zh: "皮划艇" },
  { en: "Yoga on the lawn", fr: "Yoga sur la pelouse", it: "Yoga sul prato", zh: "草坪瑜伽" },
];
const ACTIVITY_SETS = 64;

/** A probability in [0, 1) drawn from the id of the estate row `e` (one stream per seed). */
const chance = (seed: number) =>
  `((hashint4extended(e.id, ${seed}) & 2147483647)::float8 / 2147483648)`;
/** An integer in [0, n) drawn the same way. */
const below = (seed: number, n: number) => `floor(${chance(seed)} * ${n})::int`;
/** Index of a weighted choice (shares need not sum to anything in particular). */
function weighted(seed: number, shares: number[]): string {
  const total = shares.reduce((sum, share) => sum + share, 0);
  let cumulative = 0;
  const arms = shares.slice(0, -1).map((share, index) => {
    cumulative += share;
    return `when ${chance(seed)} < ${cumulative / total} then ${index}`;
  });
  return `(case ${arms.join(" ")} else ${shares.length - 1} end)`;
}
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const textArray = (values: string[]) =>
  values.length ? `array[${values.map(literal).join(",")}]` : `'{}'::text[]`;
const zhDoc = (...parts: string[]) => parts.map(chineseBigrams).filter(Boolean).join(" ");

/** The vocabulary tables the big inserts join against (a few thousand rows in all). */
function vocabularyStatements(): string[] {
  const placeRows: string[] = [];
  const nameRows: string[] = [];
  FLAVOUR_NAMES.forEach((flavour, f) => {
    const { prefixes, suffixes } = FLAVOURS[flavour];
    prefixes.forEach(([prefix, prefixZh], p) =>
      suffixes.forEach(([suffix, suffixZh], s) => {
        const gid = f * PLACES_PER_FLAVOUR + p * suffixes.length + s;
        const place = prefix + suffix;
        const placeZh = prefixZh + suffixZh;
        placeRows.push(`(${gid}, ${literal(place)}, ${literal(placeZh)})`);
        KINDS.forEach(({ words }, kind) => {
          const en = `${place} ${words.en}`;
          const fr = `${words.fr} ${/^[AEIOUÉH]/.test(place) ? "d'" : "de "}${place}`;
          const it = `${words.it} di ${place}`;
          const zh = placeZh + words.zh;
          nameRows.push(
            `(${gid}, ${kind}, ${literal(slugify(en))}, ${[en, fr, it, zh, zhDoc(zh)].map(literal).join(", ")})`,
          );
        });
      }),
    );
  });

  const locationRows = Object.entries(REGION_FACTS).flatMap(([region, { flavours, country }]) =>
    flavours.flatMap((flavour) => {
      const f = FLAVOUR_NAMES.indexOf(flavour);
      const { prefixes, suffixes } = FLAVOURS[flavour];
      return prefixes.flatMap(([prefix, prefixZh], p) =>
        suffixes.map(([suffix, suffixZh], s) => {
          const gid = f * PLACES_PER_FLAVOUR + p * suffixes.length + s;
          const town = prefix + suffix;
          const zh = `${prefixZh}${suffixZh}，${country.zh}`;
          const texts = [
            `${town}, ${country.en}`,
            `${town}, ${country.fr}`,
            `${town}, ${country.it}`,
          ];
          return `(${gid}, ${literal(region)}, ${[...texts, zh, zhDoc(zh)].map(literal).join(", ")})`;
        }),
      );
    }),
  );

  const summaryRows: string[] = [];
  CHARACTERS.forEach((character, c) =>
    KINDS.forEach(({ words }, k) =>
      TERRAINS.forEach(({ texts: terrain }, t) =>
        FEATURES.forEach((feature, f) => {
          const article = /^[aeiou]/i.test(character.en) ? "An" : "A";
          const en = `${article} ${character.en} ${words.en.toLowerCase()} ${terrain.en}. ${feature.en}`;
          const fr = `${words.fr} ${character.fr}, ${terrain.fr}. ${feature.fr}`;
          const it = `${words.it} ${character.it}, ${terrain.it}. ${feature.it}`;
          const zh = `${character.zh}的${words.zh}，${terrain.zh}。${feature.zh}`;
          summaryRows.push(
            `(${c}, ${k}, ${t}, ${f}, ${[en, fr, it, zh, zhDoc(zh)].map(literal).join(", ")})`,
          );
        }),
      ),
    ),
  );

  const amenityRows: string[] = [];
  for (let mask = 0; mask < 1 << AMENITY_KEYS.length; mask++) {
    const keys = AMENITY_KEYS.filter((_, bit) => mask & (1 << bit));
    const texts = (lang: Language) => keys.map((key) => AMENITY_TEXTS[key].texts[lang]);
    amenityRows.push(
      `(${mask}, ${[textArray(keys), ...LANGUAGES.map((lang) => textArray(texts(lang)))].join(", ")}, ${literal(zhDoc(...texts("zh")))})`,
    );
  }

  const activityRows: string[] = [];
  for (let set = 0; set < ACTIVITY_SETS; set++) {
    // Three different activities per set, spread over the list.
    const chosen = [set % 16, (set * 7 + 3) % 16, (set * 11 + 9) % 16].filter(
      (value, index, all) => all.indexOf(value) === index,
    );
    const texts = (lang: Language) => chosen.map((index) => ACTIVITIES[index]![lang]);
    activityRows.push(
      `(${set}, ${LANGUAGES.map((lang) => textArray(texts(lang))).join(", ")}, ${literal(zhDoc(...texts("zh")))})`,
    );
  }

  return [
    `create table catalogue_gen_place (gid int primary key, name text not null, zh text not null)`,
    `insert into catalogue_gen_place values ${placeRows.join(",")}`,
    `create table catalogue_gen_name (gid int, kind int, slug text, en text, fr text, it text, zh text, zh_doc text, primary key (gid, kind))`,
    `insert into catalogue_gen_name values ${nameRows.join(",")}`,
    `create table catalogue_gen_location (gid int, region text, en text, fr text, it text, zh text, zh_doc text, primary key (gid, region))`,
    `insert into catalogue_gen_location values ${locationRows.join(",")}`,
    `create table catalogue_gen_summary (character int, kind int, terrain int, feature int, en text, fr text, it text, zh text, zh_doc text, primary key (character, kind, terrain, feature))`,
    `insert into catalogue_gen_summary values ${summaryRows.join(",")}`,
    `create table catalogue_gen_amenity (mask int primary key, keys text[], en text[], fr text[], it text[], zh text[], zh_doc text)`,
    `insert into catalogue_gen_amenity values ${amenityRows.join(",")}`,
    `create table catalogue_gen_activity (set int primary key, en text[], fr text[], it text[], zh text[], zh_doc text)`,
    `insert into catalogue_gen_activity values ${activityRows.join(",")}`,
  ];
}

/** One row per estate with every choice drawn from its id; the inserts below read it. */
function estateStatement(firstId: number, lastId: number): string {
  const regions = Object.keys(REGION_FACTS);
  const regionShares = Object.values(REGION_FACTS).map((facts) => facts.share);
  // Switzerland names its places in French or German; every other region has one manner.
  const flavourOf = `case region ${Object.entries(REGION_FACTS)
    .map(([region, { flavours }]) =>
      flavours.length === 1
        ? `when ${literal(region)} then ${FLAVOUR_NAMES.indexOf(flavours[0]!)}`
        : `when ${literal(region)} then case when ${chance(3)} < 0.6 then ${FLAVOUR_NAMES.indexOf(flavours[0]!)} else ${FLAVOUR_NAMES.indexOf(flavours[1]!)} end`,
    )
    .join(" ")} end`;
  const amenityBits = AMENITY_KEYS.map((key, bit) => {
    const terrain = TERRAIN_AMENITIES[key];
    const base = AMENITY_TEXTS[key].chance;
    const p = terrain
      ? `case when terrain = ${TERRAINS.findIndex((t) => t.key === terrain)} then 0.85 else ${base / 3} end`
      : String(base);
    return `(case when ${chance(100 + bit)} < ${p} then ${1 << bit} else 0 end)`;
  }).join(" + ");
  return `
    create table catalogue_gen_estate as
    select id, region, flavour * ${PLACES_PER_FLAVOUR} + ${below(4, PLACES_PER_FLAVOUR)} as place,
      flavour * ${PLACES_PER_FLAVOUR} + ${below(5, PLACES_PER_FLAVOUR)} as town,
      kind, terrain, character, feature, ${amenityBits} as mask, activities, bedrooms,
      least(200, bedrooms * 2 - (case when ${chance(9)} < 0.3 then 1 else 0 end) + ${below(10, 4)}) as guests,
      ${chance(11)} < 0.15 as members_only
    from (
      select e.id, region, ${flavourOf} as flavour, kind, terrain, character, feature, activities, bedrooms
      from (
        select e.id, (array[${regions.map(literal).join(",")}])[1 + ${weighted(1, regionShares)}] as region,
          ${weighted(
            2,
            KINDS.map((kind) => kind.share),
          )} as kind,
          ${below(6, TERRAINS.length)} as terrain,
          ${below(7, CHARACTERS.length)} as character,
          ${below(8, FEATURES.length)} as feature,
          ${below(12, ACTIVITY_SETS)} as activities,
          -- Most houses have 4-15 bedrooms; one in twelve has 30 or more, a few up to 72.
          least(80, 3 + ${below(13, 10)} + floor(60 * power(${chance(14)}, 12))::int) as bedrooms
        from generate_series(${firstId}, ${lastId}) as e(id)
      ) e
    ) e`;
}

const PROPERTIES_STATEMENT = `
  insert into properties (id, slug, region, bedrooms, guest_capacity, members_only, owner_email, amenity_keys)
  select e.id, n.slug || '-' || e.id, e.region, e.bedrooms, e.guests, e.members_only,
    'estate-office-' || e.id || '@estates.example', a.keys
  from catalogue_gen_estate e
  join catalogue_gen_name n on n.gid = e.place and n.kind = e.kind
  join catalogue_gen_amenity a on a.mask = e.mask`;

function imagesStatement(): string {
  const architectures = `(array[${KINDS.map((kind) => literal(kind.architecture)).join(",")}])[1 + e.kind]`;
  const terrains = `(array[${TERRAINS.map((terrain) => literal(terrain.key)).join(",")}])[1 + e.terrain]`;
  return `
  insert into property_images (property_id, position, key, width, height, source, selected_rank)
  select e.id, 0, n.slug || '-' || e.id || '-1-' || left(md5(e.id::text), 10),
    ${ILLUSTRATION_WIDTH}, ${ILLUSTRATION_HEIGHT},
    jsonb_build_object('kind', 'illustration', 'seed', n.slug || '-' || e.id,
      'terrain', ${terrains}, 'architecture', ${architectures}, 'index', 0),
    0
  from catalogue_gen_estate e
  join catalogue_gen_name n on n.gid = e.place and n.kind = e.kind`;
}

/** The translations of one language; the search document as domain/catalogue/search-text.ts makes it. */
function translationsStatement(lang: Language): string {
  const document =
    lang === "zh"
      ? `concat_ws(' ', n.zh_doc, l.zh_doc, s.zh_doc, nullif(a.zh_doc, ''), v.zh_doc)`
      : `concat_ws(' ', n.${lang}, l.${lang}, s.${lang}, nullif(array_to_string(a.${lang}, ' '), ''), array_to_string(v.${lang}, ' '))`;
  return `
  insert into property_translations (property_id, lang, name, location, summary, amenities, activities, search_document)
  select e.id, '${lang}', n.${lang}, l.${lang}, s.${lang}, a.${lang}, v.${lang}, ${document}
  from catalogue_gen_estate e
  join catalogue_gen_name n on n.gid = e.place and n.kind = e.kind
  join catalogue_gen_location l on l.gid = e.town and l.region = e.region
  join catalogue_gen_summary s on s.character = e.character and s.kind = e.kind and s.terrain = e.terrain and s.feature = e.feature
  join catalogue_gen_amenity a on a.mask = e.mask
  join catalogue_gen_activity v on v.set = e.activities`;
}

const GENERATOR_TABLES = [
  "catalogue_gen_estate",
  "catalogue_gen_place",
  "catalogue_gen_name",
  "catalogue_gen_location",
  "catalogue_gen_summary",
  "catalogue_gen_amenity",
  "catalogue_gen_activity",
];

/** `parts` contiguous id ranges covering first..last. */
function idChunks(first: number, last: number, parts: number): [number, number][] {
  const size = Math.ceil((last - first + 1) / parts);
  return Array.from({ length: parts }, (_, index): [number, number] => [
    first + index * size,
    Math.min(last, first + (index + 1) * size - 1),
  ]).filter(([from, to]) => from <= to);
}

export interface GenerateCatalogueOptions {
  /** How many estates; ids run from `firstId` (default 1). */
  count: number;
  firstId?: number;
  /**
   * Drop the catalogue's secondary indexes before the load and build them again after it (much
   * faster for a million rows). Their definitions are read from the database, so the indexes
   * rebuilt are exactly the migrated ones.
   */
  rebuildIndexes?: boolean;
  /** Statements that may run side by side (PostgreSQL with a pool); 1 on PGlite. */
  concurrency?: number;
  /** `maintenance_work_mem` for the index builds (PostgreSQL: "1GB" makes GIN builds faster). */
  maintenanceWorkMem?: string;
  onStep?: (step: string, ms: number) => void;
}

export interface GenerateCatalogueReport {
  estates: number;
  translations: number;
  images: number;
  /** Milliseconds per step, in order. */
  steps: { step: string; ms: number }[];
  totalMs: number;
}

/**
 * Fills a migrated database with `count` synthetic estates in four languages, one image each,
 * then analyses the tables. Expects no estate in the id range yet.
 */
export async function generateCatalogue(
  db: Database,
  options: GenerateCatalogueOptions,
): Promise<GenerateCatalogueReport> {
  const firstId = options.firstId ?? 1;
  const lastId = firstId + options.count - 1;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const steps: { step: string; ms: number }[] = [];
  const started = performance.now();
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await work();
    const ms = Math.round(performance.now() - at);
    steps.push({ step: name, ms });
    options.onStep?.(name, ms);
    return result;
  };
  const run = (statement: string) => db.execute(sql.raw(statement));
  /** Runs statements at most `concurrency` at a time, each after `setting` in its transaction. */
  const runAll = async (statements: string[], setting?: string) => {
    const queue = [...statements];
    const runOne = (statement: string) =>
      setting
        ? withTransaction(db, async (tx) => {
            await tx.execute(sql.raw(setting));
            await tx.execute(sql.raw(statement));
          })
        : run(statement);
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) await runOne(next);
      }),
    );
  };

  for (const table of GENERATOR_TABLES) await run(`drop table if exists ${table}`);
  await step("vocabulary", async () => {
    for (const statement of vocabularyStatements()) await run(statement);
  });
  await step("draw estates", () => run(estateStatement(firstId, lastId)));

  let indexes: string[] = [];
  if (options.rebuildIndexes) {
    indexes = await step("drop secondary indexes", async () => {
      const result = await db.execute(
        sql.raw(`
          select i.indexname as name, i.indexdef as definition
          from pg_indexes i
          where i.schemaname = current_schema()
            and i.tablename in ('properties', 'property_translations', 'property_images', 'property_search')
            and not exists (
              select 1 from pg_constraint c
              where c.conname = i.indexname and c.contype in ('p', 'u')
            )`),
      );
      const rows = (result as unknown as { rows: { name: string; definition: string }[] }).rows;
      for (const row of rows) await run(`drop index "${row.name}"`);
      return rows.map((row) => row.definition);
    });
  }

  await step("properties", () => run(PROPERTIES_STATEMENT));
  // The triggers that keep property_search in step would re-aggregate every estate once per
  // language; the search rows are made once, after the four languages are in.
  await run(`alter table property_translations disable trigger user`);
  try {
    await step("translations and images", () =>
      runAll([...LANGUAGES.map(translationsStatement), imagesStatement()]),
    );
    await step("search rows", () =>
      runAll(
        idChunks(firstId, lastId, concurrency).map(
          ([from, to]) =>
            `insert into property_search (property_id, search_vector, names, facts, guest_capacity, bedrooms)
             select property_id, search_vector, names, facts, guest_capacity, bedrooms from property_search_source
             where property_id between ${from} and ${to}`,
        ),
      ),
    );
  } finally {
    await run(`alter table property_translations enable trigger user`);
  }
  if (indexes.length)
    await step("build secondary indexes", () =>
      runAll(
        indexes,
        options.maintenanceWorkMem
          ? `set local maintenance_work_mem = '${options.maintenanceWorkMem}'`
          : undefined,
      ),
    );
  for (const table of GENERATOR_TABLES) await run(`drop table ${table}`);
  await step("vacuum analyze", () =>
    runAll(
      ["properties", "property_translations", "property_images", "property_search"].map(
        (table) => `vacuum analyze ${table}`,
      ),
    ),
  );
  return {
    estates: options.count,
    translations: options.count * LANGUAGES.length,
    images: options.count,
    steps,
    totalMs: Math.round(performance.now() - started),
  };
}
