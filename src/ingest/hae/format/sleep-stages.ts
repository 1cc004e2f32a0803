/**
 * Sleep stage names → the stage keys sleep.ts stores (`inBed`, `asleep`, `core`, `deep`, `rem`,
 * `awake`, `unspecified`).
 *
 * Health Auto Export writes a segment's stage (`value`) as display text in the phone's language,
 * not as an identifier: a German phone sends `Kern`, `Tief`, `Wach`, `Im Bett`; a French one
 * `Principal`, `Profond`, `Paradoxal`, `Éveillé`; and the app's own translations do not always
 * match the Health app's words. Other exporters write Apple's identifiers
 * (`HKCategoryValueSleepAnalysisAsleepCore`, `asleepCore`) or phrases (`Asleep (Core)`,
 * `Deep Sleep`, `Tiefschlaf`). All of these are read here. A name that matches none stays unknown:
 * the caller reports it (it is never counted as some other stage).
 */
import { textMemo } from '../../../common/text-memo.js';

type Stage = 'inBed' | 'asleep' | 'core' | 'deep' | 'rem' | 'awake' | 'unspecified';

/** Each stage's words, space-separated, as `stageKey` writes them (lower case, no accents, no spaces). */
const WORDS: Record<Stage, string[]> = {
  inBed: (
    'inbed bed imbett bett aulit lit encama enlacama cama aletto nelletto letto nacama isangen ' +
    'isang iseng isengen sangyssa wlozku włozku вкровати впостели yatakta vposteli ベッド ベット ベッド内 ' +
    'ベッドにいる ベッドにいる時間 卧床 臥床 在床上 床上 침대 침대에있음 침대에서'
  ).split(' '),
  asleep: (
    'asleep sleeping schlafend schlaft endormi endormie dormido dormida dormir addormentato ' +
    'addormentata dormendo dormindo adormecido slapend sover nukkuu unessa spi spanek спит ' +
    'uyuyor uykuda 睡眠中 入睡 睡着 睡著 수면중'
  ).split(' '),
  core: (
    'core kern kerne kjerne karna karn principal principale essencial essential basico basica ' +
    'base ydin perus podstawowy glowny główny основной cekirdek temel jadro zakladni light ' +
    'leicht leger legere ligero ligera leggero licht lichte leve lett latt kevyt lekki легкий ' +
    'легкии hafif lehky コア 浅い ライト 核心 浅睡 浅度 浅 코어 얕은'
  ).split(' '),
  deep: (
    'deep tief profond profonde profundo profunda profondo diep diepe djup dyb dyp syva gleboki ' +
    'głeboki глубокии глубокий derin hluboky 深い 深度 深層 深睡 熟睡 깊은 깊음 깊은수면'
  ).split(' '),
  rem: 'rem paradoxal paradoxale bdg бдг быстрыи быстрый レム 快速动眼 快速動眼 快速眼动 眼动 렘'.split(' '),
  awake: (
    'awake wake wach eveille eveillee eveil reveille despierto despierta sveglio sveglia veglia ' +
    'acordado acordada desperto desperta wakker vaken vagen vaken hereilla przebudzenie ' +
    'czuwanie бодрствование пробуждение uyanik uyanık vzhuru bdeni 覚醒 起きている 清醒 醒著 醒着 깨어있음 깸'
  ).split(' '),
  unspecified: (
    'unspecified unspezifiziert nichtangegeben nonspecifie sinespecificar noespecificado ' +
    'nonspecificato naoespecificado nietgespecificeerd ospecificerad uspecificeret uspesifisert ' +
    'maarittelematon nieokreslony неуказано belirtilmemis 未指定 未特定 지정되지않음'
  ).split(' '),
};

/**
 * Words that only say "sleep" or "stage" around a stage name (`Asleep (Core)`, `Deep Sleep`,
 * `Sommeil profond`, `REM-Schlaf`): dropped before the stage is looked up. A name that is nothing
 * but these (`Asleep`, `Schlaf`, `Sommeil`) is plain asleep.
 */
const FILLER = new Set([
  'asleep',
  'sleep',
  'stage',
  'phase',
  'schlaf',
  'schlafphase',
  'sommeil',
  'sueno',
  'sonno',
  'sono',
  'slaap',
  'somn',
  'sovn',
  'uni',
  'sen',
  'сон',
  'uyku',
  'spanek',
  'fase',
  'fasi',
  '睡眠',
  '수면',
  // Apple's identifiers, split at their capitals: HKCategoryValueSleepAnalysisAsleepCore
  'hkcategory',
  'value',
  'analysis',
]);

/**
 * German, Nordic and Dutch compounds, and Chinese, Japanese and Korean, write the stage and "sleep"
 * as one word (`Tiefschlaf`, `Djupsömn`, `深度睡眠`).
 */
const COMPOUND_SLEEP = /(schlaf|somn|sovn|slaap|睡眠|수면)$/u;

const BY_WORD = new Map<string, Stage>();
for (const [stage, words] of Object.entries(WORDS) as [Stage, string[]][]) {
  for (const w of words) BY_WORD.set(stageKey(w), stage);
}

/** Lower case, no accents, no brackets or punctuation, words split (camelCase too). */
function words(name: string): string[] {
  return name
    .normalize('NFKC')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .split(/[\s_\-–—()[\]{}.,:;/|'"’]+/)
    .filter((w) => w !== '');
}

function stageKey(word: string): string {
  return words(word).join('');
}

/**
 * The stage key a stage name means, in any of the spellings above; undefined when it means none
 * (the caller reports it by name).
 */
export function sleepStageOf(name: string): Stage | undefined {
  return stageOf(name);
}

// every segment of a night repeats one of a few stage names: each is worked out once
const stageOf = textMemo(stageOfName);

function stageOfName(name: string): Stage | undefined {
  const all = words(name);
  if (all.length === 0) return undefined;
  const whole = BY_WORD.get(all.join(''));
  if (whole) return whole;
  const kept: string[] = [];
  for (const w of all) {
    if (FILLER.has(w)) continue;
    const stem = w.replace(COMPOUND_SLEEP, '');
    if (stem !== '') kept.push(stem);
  }
  if (kept.length === 0) return 'asleep';
  return BY_WORD.get(kept.join('')) ?? (kept.length > 1 ? fromOneWord(kept) : undefined);
}

/** `["asleep", "core"]`-like leftovers: the one word that names a stage, when exactly one does. */
function fromOneWord(kept: string[]): Stage | undefined {
  const found = new Set<Stage>();
  for (const w of kept) {
    const s = BY_WORD.get(w);
    if (s) found.add(s);
  }
  return found.size === 1 ? [...found][0] : undefined;
}
