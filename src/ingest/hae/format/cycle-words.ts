/**
 * Cycle-tracking records in the phone's language. Health Auto Export writes the name and the
 * value of each `cycleTracking` record translated (`{"name": "Flujo Menstrual", "value":
 * "Pesado"}` on a Spanish phone, where an English one sends `Menstrual Flow` and `Heavy`), so the
 * words below map them back to the English words cycle-tracking.ts reads: Spanish, German, French,
 * Italian, Portuguese, Dutch and Swedish, the languages medication statuses are read in too. Words
 * are compared folded (foldLetters): lower case, accents and spaces dropped, so `Flujo menstrual`,
 * `FLUJO MENSTRUAL` and `flujo_menstrual` are one word. A word not listed stays as it was sent and
 * is then named in a warning, never guessed.
 */

/**
 * A text's letters, lower case, accents dropped (`Lätt` → `latt`, `Ovulación` → `ovulacion`, `ß`
 * → `ss`, `œ` → `oe`), anything but a-z removed: the form names and values are compared in.
 */
export function foldLetters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .replace(/[^a-z]/g, '');
}

/** English word → its translations. Folded on load. */
type Words = Record<string, readonly string[]>;

// biome-ignore format: one line per English word reads as a table
const KIND_WORDS: Words = {
  'Menstrual Flow': ['Flujo Menstrual', 'Menstruación', 'Menstruationsblutung', 'Menstruationsfluss', 'Periodenblutung', 'Flux menstruel', 'Règles', 'Flusso mestruale', 'Mestruazioni', 'Fluxo menstrual', 'Menstruação', 'Menstruele bloeding', 'Menstruatie', 'Menstruationsflöde', 'Mens'],
  'Vaginal Bleeding': ['Sangrado vaginal', 'Vaginale Blutung', 'Saignement vaginal', 'Sanguinamento vaginale', 'Sangramento vaginal', 'Vaginaal bloedverlies', 'Vaginale bloeding', 'Vaginal blödning'],
  'Intermenstrual Bleeding': ['Sangrado intermenstrual', 'Manchado', 'Zwischenblutung', 'Schmierblutung', 'Saignement intermenstruel', 'Saignements intermenstruels', 'Sanguinamento intermestruale', 'Perdite intermestruali', 'Sangramento intermenstrual', 'Escape', 'Tussentijds bloedverlies', 'Tussentijdse bloeding', 'Mellanblödning', 'Stänkblödning'],
  'Persistent Intermenstrual Bleeding': ['Sangrado intermenstrual persistente', 'Anhaltende Zwischenblutungen', 'Saignements intermenstruels persistants', 'Sanguinamento intermestruale persistente', 'Sangramento intermenstrual persistente', 'Aanhoudend tussentijds bloedverlies', 'Ihållande mellanblödningar'],
  'Irregular Menstrual Cycles': ['Ciclos menstruales irregulares', 'Unregelmäßige Menstruationszyklen', 'Cycles menstruels irréguliers', 'Cicli mestruali irregolari', 'Ciclos menstruais irregulares', 'Onregelmatige menstruatiecycli', 'Oregelbundna menstruationscykler'],
  'Infrequent Menstrual Cycles': ['Ciclos menstruales poco frecuentes', 'Seltene Menstruationszyklen', 'Cycles menstruels peu fréquents', 'Cicli mestruali poco frequenti', 'Ciclos menstruais pouco frequentes', 'Zeldzame menstruatiecycli', 'Sällsynta menstruationscykler'],
  'Prolonged Menstrual Periods': ['Períodos menstruales prolongados', 'Verlängerte Menstruationsperioden', 'Règles prolongées', 'Mestruazioni prolungate', 'Períodos menstruais prolongados', 'Langdurige menstruaties', 'Förlängda menstruationer'],
  'Cervical Mucus Quality': ['Calidad del moco cervical', 'Moco cervical', 'Zervixschleimqualität', 'Qualität des Zervixschleims', 'Zervixschleim', 'Qualité de la glaire cervicale', 'Glaire cervicale', 'Qualità del muco cervicale', 'Muco cervicale', 'Qualidade do muco cervical', 'Muco cervical', 'Kwaliteit van baarmoederhalsslijm', 'Baarmoederhalsslijm', 'Cervixslijm', 'Livmoderhalssekretets kvalitet', 'Livmoderhalssekret', 'Cervixsekret'],
  'Ovulation Test Result': ['Resultado de la prueba de ovulación', 'Prueba de ovulación', 'Ergebnis des Ovulationstests', 'Ovulationstest', 'Eisprungtest', 'Résultat du test d’ovulation', "Résultat du test d'ovulation", 'Test d’ovulation', "Test d'ovulation", 'Risultato del test di ovulazione', 'Test di ovulazione', 'Resultado do teste de ovulação', 'Teste de ovulação', 'Uitslag ovulatietest', 'Ovulatietest', 'Resultat av ägglossningstest', 'Ägglossningstest'],
  'Pregnancy Test Result': ['Resultado de la prueba de embarazo', 'Prueba de embarazo', 'Ergebnis des Schwangerschaftstests', 'Schwangerschaftstest', 'Résultat du test de grossesse', 'Test de grossesse', 'Risultato del test di gravidanza', 'Test di gravidanza', 'Resultado do teste de gravidez', 'Teste de gravidez', 'Uitslag zwangerschapstest', 'Zwangerschapstest', 'Resultat av graviditetstest', 'Graviditetstest'],
  'Progesterone Test Result': ['Resultado de la prueba de progesterona', 'Prueba de progesterona', 'Ergebnis des Progesterontests', 'Progesterontest', 'Résultat du test de progestérone', 'Test de progestérone', 'Risultato del test del progesterone', 'Test del progesterone', 'Resultado do teste de progesterona', 'Teste de progesterona', 'Uitslag progesterontest', 'Resultat av progesterontest'],
  'Sexual Activity': ['Actividad sexual', 'Sexuelle Aktivität', 'Activité sexuelle', 'Attività sessuale', 'Atividade sexual', 'Actividade sexual', 'Seksuele activiteit', 'Sexuell aktivitet'],
};

// biome-ignore format: one line per English word reads as a table
const VALUE_WORDS: Words = {
  // menstrual flow
  None: ['Ninguno', 'Ninguna', 'Sin flujo', 'Keine', 'Kein', 'Keine Blutung', 'Aucun', 'Aucune', 'Nessuno', 'Nessuna', 'Nenhum', 'Nenhuma', 'Sem fluxo', 'Geen', 'Ingen', 'Inget'],
  Light: ['Ligero', 'Leve', 'Leicht', 'Schwach', 'Léger', 'Faible', 'Leggero', 'Leggera', 'Lieve', 'Licht', 'Lätt', 'Lätt blödning'],
  Medium: ['Medio', 'Moderado', 'Mittel', 'Mittelstark', 'Moyen', 'Moyenne', 'Modéré', 'Medio', 'Moderato', 'Médio', 'Gemiddeld', 'Middel', 'Medel', 'Måttlig'],
  Heavy: ['Pesado', 'Abundante', 'Intenso', 'Stark', 'Abondant', 'Abondante', 'Fort', 'Abbondante', 'Forte', 'Zwaar', 'Hevig', 'Kraftig', 'Riklig'],
  Unspecified: ['No especificado', 'Sin especificar', 'Nicht angegeben', 'Non spécifié', 'Non specificato', 'Não especificado', 'Niet opgegeven', 'Niet gespecificeerd', 'Ej angivet', 'Ospecificerat', 'Ospecificerad'],
  // cervical mucus
  Dry: ['Seco', 'Seca', 'Trocken', 'Sec', 'Sèche', 'Secco', 'Secca', 'Droog', 'Torr', 'Torrt'],
  Sticky: ['Pegajoso', 'Pegajosa', 'Klebrig', 'Collant', 'Collante', 'Appiccicoso', 'Kleverig', 'Klibbig', 'Klibbigt'],
  Creamy: ['Cremoso', 'Cremosa', 'Cremig', 'Crémeux', 'Crémeuse', 'Romig', 'Krämig', 'Krämigt'],
  Watery: ['Acuoso', 'Acuosa', 'Wässrig', 'Aqueux', 'Aqueuse', 'Acquoso', 'Acquosa', 'Aquoso', 'Aquosa', 'Waterig', 'Vattnig', 'Vattnigt'],
  'Egg White': ['Clara de huevo', 'Eiweißartig', 'Spinnbar', 'Blanc d’œuf', "Blanc d'œuf", "Blanc d'oeuf", 'Albume d’uovo', "Albume d'uovo", 'Chiara d’uovo', "Chiara d'uovo", 'Clara de ovo', 'Eiwitachtig', 'Äggvita', 'Äggviteliknande'],
  // test results
  Positive: ['Positivo', 'Positiva', 'Positiv', 'Positif', 'Positive', 'Positief', 'Positivt'],
  Negative: ['Negativo', 'Negativa', 'Negativ', 'Négatif', 'Négative', 'Negatief', 'Negativt'],
  Indeterminate: ['Indeterminado', 'Indeterminada', 'Unbestimmt', 'Nicht eindeutig', 'Indéterminé', 'Indeterminato', 'Onbepaald', 'Onduidelijk', 'Obestämt', 'Obestämd', 'Oklart'],
  'LH Surge': ['Pico de LH', 'Aumento de LH', 'LH-Anstieg', 'LH-Spitze', 'Pic de LH', 'Picco di LH', 'Picco LH', 'LH-piek', 'LH-topp', 'LH-ökning'],
  'Estrogen Surge': ['Pico de estrógeno', 'Östrogenanstieg', 'Pic d’œstrogène', "Pic d'oestrogène", 'Picco di estrogeni', 'Pico de estrogénio', 'Pico de estrogênio', 'Oestrogeenpiek', 'Östrogentopp'],
  High: ['Alto', 'Alta', 'Hoch', 'Élevé', 'Élevée', 'Hoog', 'Hög', 'Högt'],
  Low: ['Bajo', 'Baja', 'Niedrig', 'Bas', 'Basse', 'Basso', 'Bassa', 'Baixo', 'Baixa', 'Laag', 'Låg', 'Lågt'],
  // sexual activity
  'Protection Used': ['Protección usada', 'Con protección', 'Mit Verhütung', 'Mit Schutz', 'Protection utilisée', 'Avec protection', 'Protezione usata', 'Con protezione', 'Proteção usada', 'Com proteção', 'Met bescherming', 'Bescherming gebruikt', 'Med skydd', 'Skydd användes'],
  'Protection Not Used': ['Protección no usada', 'Sin protección', 'Ohne Verhütung', 'Ohne Schutz', 'Protection non utilisée', 'Sans protection', 'Protezione non usata', 'Senza protezione', 'Proteção não usada', 'Sem proteção', 'Zonder bescherming', 'Geen bescherming gebruikt', 'Utan skydd', 'Skydd användes inte'],
};

/** Folded translation → the English word, for one table. */
function folded(words: Words): Map<string, string> {
  const out = new Map<string, string>();
  for (const [english, translations] of Object.entries(words))
    for (const t of translations) out.set(foldLetters(t), english);
  return out;
}

const KINDS = folded(KIND_WORDS);
const VALUES = folded(VALUE_WORDS);

/** The English name of a record's kind sent in the phone's language (`Flujo Menstrual` → `Menstrual Flow`); anything else as sent. */
export function englishKind<T>(name: T): T | string {
  return typeof name === 'string' ? (KINDS.get(foldLetters(name)) ?? name) : name;
}

/** The English word of a record's value sent in the phone's language (`Pesado` → `Heavy`); anything else as sent. */
export function englishValue<T>(value: T): T | string {
  return typeof value === 'string' ? (VALUES.get(foldLetters(value)) ?? value) : value;
}
