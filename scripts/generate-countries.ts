/**
 * Writes domain/requests/country-codes.json and country-names.json: the 193 UN member states plus the two observer states
 * (Holy See, Palestine) as ISO 3166-1 alpha-2 codes, with their names in en, fr, it and zh
 * taken from the CLDR data that ships with Node (Intl.DisplayNames). Committed, so the
 * server and every browser show the same names. Run: npx node scripts/generate-countries.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const CODES =
  `AF AL DZ AD AO AG AR AM AU AT AZ BS BH BD BB BY BE BZ BJ BT BO BA BW BR BN BG BF BI CV KH
CM CA CF TD CL CN CO KM CG CD CR CI HR CU CY CZ DK DJ DM DO EC EG SV GQ ER EE SZ ET FJ FI FR GA GM
GE DE GH GR GD GT GN GW GY HT HN HU IS IN ID IR IQ IE IL IT JM JP JO KZ KE KI KP KR KW KG LA LV LB
LS LR LY LI LT LU MG MW MY MV ML MT MH MR MU MX FM MD MC MN ME MA MZ MM NA NR NP NL NZ NI NE NG MK
NO OM PK PW PA PG PY PE PH PL PT QA RO RU RW KN LC VC WS SM ST SA SN RS SC SL SG SK SI SB SO ZA SS
ES LK SD SR SE CH SY TJ TZ TH TL TG TO TT TN TR TM TV UG UA AE GB US UY UZ VU VE VN YE ZM ZW VA PS`
    .split(/\s+/)
    .filter(Boolean);

if (new Set(CODES).size !== 195)
  throw new Error(`expected 195 distinct codes, got ${new Set(CODES).size}`);

const names: Record<string, Record<string, string>> = {};
for (const language of ["en", "fr", "it", "zh"]) {
  const display = new Intl.DisplayNames([language], { type: "region" });
  names[language] = Object.fromEntries(CODES.map((code) => [code, display.of(code) ?? code]));
}
// Codes alone for the form schema (small enough for the browser); names for the server.
const folder = join(import.meta.dirname, "../domain/requests");
writeFileSync(join(folder, "country-codes.json"), `${JSON.stringify([...CODES].sort())}\n`);
writeFileSync(join(folder, "country-names.json"), `${JSON.stringify(names, null, 2)}\n`);
console.log(
  `wrote ${CODES.length} countries to ${folder}; run \`npx prettier --write domain/requests/country-*.json\``,
);
