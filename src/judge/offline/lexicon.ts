/**
 * The offline judge's small English lexicon: words that say the same thing
 * (so that "huge" finds "large" and "authored" finds "wrote"), and words that
 * contradict each other in the same place (a team that won did not lose; a
 * museum that closed did not open). Lemmas, as wink-nlp gives them
 * ("heavier" → "heavy", "began" → "begin"). Common English only: a word
 * whose senses disagree ("fire", "present", "left") is left out, and so is
 * any word the judge treats as carrying no content ("get", "use", "make").
 */
import { ownKeys } from "./own-keys";

/**
 * Groups of words that state the same fact here. A word's key is its group's
 * first word; a word in no group is its own key.
 */
export const SYNONYM_GROUPS: ReadonlyArray<readonly string[]> = [
  // British and American spellings of one direction
  ["counterclockwise", "anticlockwise", "counter-clockwise", "anti-clockwise"],
  // A roman numeral after a name is its ordinal ("World War II" is the Second World War, "WWII")
  ["second", "ii"],
  ["third", "iii"],
  // Korean colours: native and Sino-Korean words
  ["파란색", "청색", "파랑", "푸른색"],
  ["노란색", "황색", "노랑"],
  ["검은색", "흑색", "까만색", "검정", "검정색"],
  ["초록색", "녹색", "초록"],
  ["빨간색", "적색", "빨강", "붉은색"],
  ["흰색", "백색", "하얀색", "하양"],
  ["근처", "인근", "부근", "주변"],
  // words of names and their short forms (Bell Labs = Bell Laboratories, Mt. Fuji = Mount Fuji)
  ["laboratory", "laboratories", "lab", "labs"],
  ["university", "univ"],
  ["corporation", "corp"],
  ["incorporated", "inc"],
  ["department", "dept"],
  ["mount", "mt"],
  ["international", "intl"],
  // size, speed, age, cost, risk
  ["large", "big", "huge", "enormous", "vast", "massive", "giant", "gigantic", "immense"],
  ["small", "little", "tiny", "minuscule"],
  ["high", "tall", "lofty"],
  ["fast", "quick", "rapid", "swift", "speedy"],
  ["old", "ancient", "elderly"],
  ["cheap", "inexpensive"],
  ["expensive", "costly", "pricey"],
  ["dangerous", "hazardous", "perilous", "unsafe"],
  ["important", "significant", "crucial", "vital", "essential"],
  ["difficult", "challenging"],
  ["easy", "simple", "straightforward"],
  ["correct", "accurate"],
  ["first", "original", "initial", "earliest"],
  ["incorrect", "wrong", "inaccurate", "erroneous"],
  ["famous", "renowned", "celebrated"],
  ["rich", "wealthy", "affluent"],
  ["strong", "powerful", "mighty"],
  ["intelligent", "clever", "smart"],
  ["happy", "glad", "joyful", "cheerful"],
  ["sad", "unhappy", "sorrowful"],
  ["whole", "entire"],
  ["enough", "sufficient", "adequate"],
  // change and events
  ["increase", "rise", "climb", "grow"],
  ["decrease", "fall", "drop", "decline"],
  ["begin", "start", "commence"],
  ["end", "finish", "conclude", "terminate"],
  ["stop", "cease", "halt"],
  ["build", "construct", "erect"],
  ["buy", "purchase"],
  ["die", "perish"],
  ["kill", "slay", "murder", "assassinate"],
  ["write", "author", "compose"],
  ["invent", "devise"],
  ["found", "establish"],
  ["discover", "find", "uncover"],
  ["show", "demonstrate"],
  ["help", "assist", "aid"],
  ["receive", "obtain"],
  ["need", "require"],
  ["allow", "permit"],
  ["forbid", "prohibit", "ban", "outlaw"],
  ["surrender", "capitulate"],
  ["answer", "reply", "respond"],
  ["try", "attempt"],
  ["keep", "retain"],
  ["seem", "appear"],
  ["speak", "talk"],
  ["happen", "occur"],
  // things
  ["car", "automobile"],
  ["doctor", "physician"],
  ["child", "kid"],
  ["film", "movie"],
  ["country", "nation"],
  ["airplane", "aeroplane", "aircraft"],
  ["photograph", "photo"],
  // body parts and the adjectives medicine uses for them (renal failure is kidney failure)
  ["heart", "cardiac"],
  ["kidney", "renal"],
  ["liver", "hepatic"],
  ["lung", "pulmonary"],
  ["stomach", "gastric"],
  ["skin", "cutaneous", "dermal"],
  ["tooth", "dental"],
  ["nose", "nasal"],
  ["eye", "ocular"],
  ["skull", "cranium", "cranial"],
  ["chest", "thorax", "thoracic"],
  ["abdomen", "belly", "abdominal"],
  ["intestine", "bowel", "intestinal"],
  ["spine", "backbone", "spinal"],
  ["artery", "arterial"],
  ["vein", "venous"],
  // other names in medicine and science
  ["epinephrine", "adrenaline"],
  ["norepinephrine", "noradrenaline"],
  ["paracetamol", "acetaminophen"],
  ["influenza", "flu"],
  ["chickenpox", "varicella"],
  ["myopia", "nearsightedness", "shortsightedness"],
  ["hyperopia", "farsightedness", "longsightedness"],
  ["windpipe", "trachea"],
  ["collarbone", "clavicle"],
  ["kneecap", "patella"],
  ["breastbone", "sternum"],
  ["shinbone", "tibia"],
  ["gullet", "oesophagus", "esophagus"],
  // British and American spellings
  ["haemoglobin", "hemoglobin"],
  ["anaemia", "anemia"],
  ["oestrogen", "estrogen"],
  ["foetus", "fetus"],
  ["diarrhoea", "diarrhea"],
  ["leukaemia", "leukemia"],
  ["haemorrhage", "hemorrhage"],
  ["paediatric", "pediatric"],
  ["orthopaedic", "orthopedic"],
  ["colour", "color"],
  ["centre", "center"],
  ["metre", "meter"],
  ["litre", "liter"],
  ["kilometre", "kilometer"],
  ["theatre", "theater"],
  ["favour", "favor"],
  ["organise", "organize"],
  ["analyse", "analyze"],
  ["recognise", "recognize"],
  ["defence", "defense"],
  ["licence", "license"],
  ["aluminium", "aluminum"],
  ["grey", "gray"],
  ["sulphur", "sulfur"],
];

/**
 * Verbs of two words that mean one listed word ("passed away" is "died",
 * "went up" is "rose"): the verb's lemma, the word right after it as
 * written, the meaning. Only pairs with one common sense in factual answers
 * ("give up" and "put out" have two, and are left out). `unless` is a word
 * that, right after the pair, gives it another sense ("broke out of prison").
 */
export const PHRASAL_VERBS: ReadonlyArray<{ verb: string; particle: string; meaning: string; unless?: string }> = [
  { verb: "pass", particle: "away", meaning: "die" },
  { verb: "go", particle: "up", meaning: "increase" },
  { verb: "go", particle: "down", meaning: "decrease" },
  { verb: "come", particle: "back", meaning: "return" },
  { verb: "go", particle: "back", meaning: "return" },
  { verb: "give", particle: "back", meaning: "return" },
  { verb: "find", particle: "out", meaning: "discover" },
  { verb: "set", particle: "up", meaning: "found" },
  { verb: "break", particle: "out", meaning: "begin", unless: "of" },
  { verb: "take", particle: "place", meaning: "happen" },
  { verb: "blow", particle: "up", meaning: "explode" },
  { verb: "carry", particle: "out", meaning: "perform" },
  { verb: "look", particle: "into", meaning: "investigate" },
  { verb: "turn", particle: "down", meaning: "reject" },
  { verb: "call", particle: "off", meaning: "cancel" },
  { verb: "shut", particle: "down", meaning: "close" },
  { verb: "close", particle: "down", meaning: "close" },
  { verb: "step", particle: "down", meaning: "resign" },
  { verb: "speed", particle: "up", meaning: "accelerate" },
  { verb: "slow", particle: "down", meaning: "decelerate" },
];

const PHRASAL = new Map(PHRASAL_VERBS.map((p) => [`${p.verb} ${p.particle}`, p]));

/**
 * What a verb and the words after it mean together, when they are one of
 * {@link PHRASAL_VERBS}; else undefined.
 *
 * @example
 * phrasalVerb("pass", "away", "in");  // → "die"
 * phrasalVerb("break", "out", "of");  // → undefined ("broke out of prison")
 * phrasalVerb("pass", "the", "exam"); // → undefined
 */
export function phrasalVerb(verbLemma: string, next: string, after = ""): string | undefined {
  const entry = PHRASAL.get(`${verbLemma} ${next.toLowerCase()}`);
  if (entry === undefined || (entry.unless !== undefined && after.toLowerCase() === entry.unless)) return undefined;
  return entry.meaning;
}

/**
 * Prepositions that say where or when a thing stands to another, and whose
 * opposites ({@link OPPOSITES}) say the reverse: "the valve sits above the
 * pump" is not "below the pump"; "before the war" is not "after" it.
 */
export const RELATION_WORDS: ReadonlySet<string> = new Set(["above", "below", "beneath", "inside", "outside", "before", "after", "with", "without", "to", "toward", "away from"]);

/**
 * Other names of a few countries and states, as one-word keys to the words
 * of their other names: "Britain" is the United Kingdom, "America" the United
 * States. (Abbreviations such as UK and USA are spelled out by the judge itself.)
 */
export const NAME_ALIASES: Readonly<Record<string, readonly string[]>> = ownKeys<readonly string[]>({
  britain: ["united kingdom", "uk", "great britain"],
  america: ["united states", "us", "usa"],
  holland: ["netherlands"],
  ussr: ["soviet union"],
  burma: ["myanmar"],
  myanmar: ["burma"],
  persia: ["iran"],
  netherlands: ["holland"],
  siam: ["thailand"],
  ceylon: ["sri lanka"],
  formosa: ["taiwan"],
  swaziland: ["eswatini"],
  eswatini: ["swaziland"],
  czechia: ["czech republic"],
  turkiye: ["turkey"],
  // Cities under an older or other name.
  bombay: ["mumbai"],
  mumbai: ["bombay"],
  peking: ["beijing"],
  beijing: ["peking"],
  calcutta: ["kolkata"],
  kolkata: ["calcutta"],
  madras: ["chennai"],
  chennai: ["madras"],
  rangoon: ["yangon"],
  yangon: ["rangoon"],
  saigon: ["ho chi minh city"],
  constantinople: ["istanbul"],
  istanbul: ["constantinople"],
});

const KEYS = new Map<string, string>();
for (const group of SYNONYM_GROUPS) for (const word of group) KEYS.set(word, group[0]!);

/**
 * The key under which the judge compares a lemma: its synonym group's first
 * word, else the lemma itself.
 *
 * @example
 * synonymKey("huge");      // → "large"
 * synonymKey("capitulate"); // → "surrender"
 * synonymKey("penicillin"); // → "penicillin"
 */
export function synonymKey(lemma: string): string {
  return KEYS.get(lemma) ?? lemma;
}

/**
 * Words of which a statement can hold only one: each entry lists poles, and
 * words of different poles of one entry contradict each other (a rise is not
 * a fall; a red car is not a blue one). Synonyms share a pole. A word may
 * stand in several entries ("lose" against "win" and against "gain").
 */
export const OPPOSITES: ReadonlyArray<ReadonlyArray<ReadonlySet<string>>> = [
  [["red"], ["blue"], ["green"], ["yellow"], ["black"], ["white"], ["orange"], ["purple"], ["pink"], ["brown"], ["grey", "gray"]].map((c) => new Set(c)),
  [["north", "northern"], ["south", "southern"], ["east", "eastern"], ["west", "western"]].map((c) => new Set(c)),
  [new Set(["rise", "increase", "grow", "climb", "gain", "higher", "up", "raise"]), new Set(["fall", "drop", "decline", "decrease", "shrink", "lower", "down", "reduce", "lose"])],
  [new Set(["high", "tall"]), new Set(["low", "short"])],
  [new Set(["long"]), new Set(["short"])],
  [new Set(["large", "big", "larger", "bigger", "largest", "biggest"]), new Set(["small", "little", "smaller", "smallest"])],
  [new Set(["more", "most"]), new Set(["less", "fewer", "least"])],
  [new Set(["before", "earlier"]), new Set(["after", "later"])],
  [new Set(["above"]), new Set(["below", "beneath"])],
  [new Set(["inside"]), new Set(["outside"])],
  [new Set(["inner"]), new Set(["outer"])],
  [new Set(["to", "toward", "towards"]), new Set(["away from"])],
  [new Set(["with"]), new Set(["without"])],
  [new Set(["first"]), new Set(["last", "final"])],
  [new Set(["hot", "warm", "warmer", "hotter"]), new Set(["cold", "cool", "colder", "cooler"])],
  [new Set(["true", "correct", "right"]), new Set(["false", "incorrect", "wrong"])],
  [new Set(["only", "solely"]), new Set(["both"])],
  [new Set(["positive", "positively"]), new Set(["negative", "negatively"])],
  [new Set(["buy"]), new Set(["sell"])],
  [new Set(["add", "create"]), new Set(["remove", "delete"])],
  // outcomes and decisions
  [new Set(["win"]), new Set(["lose"])],
  [new Set(["pass", "succeed"]), new Set(["fail"])],
  [new Set(["accept", "approve", "endorse", "ratify"]), new Set(["reject", "veto", "refuse"])],
  [new Set(["allow", "legalize", "legalise"]), new Set(["forbid", "ban"])],
  [new Set(["include"]), new Set(["exclude"])],
  [new Set(["support"]), new Set(["oppose"])],
  [new Set(["agree"]), new Set(["disagree"])],
  [new Set(["confirm"]), new Set(["deny", "refute"])],
  [new Set(["survive"]), new Set(["die"])],
  [new Set(["marry"]), new Set(["divorce"])],
  // motion and change
  [new Set(["open"]), new Set(["close", "shut"])],
  [new Set(["begin"]), new Set(["end", "stop"])],
  [new Set(["enter"]), new Set(["exit"])],
  [new Set(["arrive"]), new Set(["depart"])],
  [new Set(["import"]), new Set(["export"])],
  [new Set(["attack"]), new Set(["defend"])],
  [new Set(["absorb"]), new Set(["release", "emit"])],
  [new Set(["double"]), new Set(["halve"])],
  [new Set(["expand"]), new Set(["contract", "shrink"])],
  [new Set(["converge"]), new Set(["diverge"])],
  [new Set(["dilate"]), new Set(["constrict"])],
  [new Set(["inhale"]), new Set(["exhale"])],
  [new Set(["inhalation"]), new Set(["exhalation"])],
  [new Set(["attract"]), new Set(["repel"])],
  [new Set(["acquit"]), new Set(["convict"])],
  [new Set(["overestimate"]), new Set(["underestimate"])],
  [new Set(["strengthen"]), new Set(["weaken"])],
  [new Set(["melt"]), new Set(["freeze"])],
  [new Set(["evaporate"]), new Set(["condense"])],
  [new Set(["float"]), new Set(["sink"])],
  [new Set(["push"]), new Set(["pull"])],
  [new Set(["ascend"]), new Set(["descend"])],
  [new Set(["accelerate"]), new Set(["decelerate"])],
  [new Set(["appear"]), new Set(["disappear"])],
  // qualities
  [new Set(["legal", "lawful"]), new Set(["illegal", "unlawful"])],
  [new Set(["alive", "living"]), new Set(["dead"])],
  [new Set(["possible"]), new Set(["impossible"])],
  [new Set(["visible"]), new Set(["invisible"])],
  [new Set(["full"]), new Set(["empty"])],
  [new Set(["heavy"]), new Set(["light"])],
  [new Set(["fast"]), new Set(["slow"])],
  [new Set(["early"]), new Set(["late"])],
  [new Set(["new", "young", "modern"]), new Set(["old"])],
  [new Set(["rich"]), new Set(["poor"])],
  [new Set(["wet"]), new Set(["dry"])],
  [new Set(["hard"]), new Set(["soft"])],
  [new Set(["strong"]), new Set(["weak"])],
  [new Set(["cheap"]), new Set(["expensive"])],
  [new Set(["safe"]), new Set(["dangerous"])],
  [new Set(["public"]), new Set(["private"])],
  [new Set(["male"]), new Set(["female"])],
  [new Set(["internal"]), new Set(["external"])],
  [new Set(["maximum"]), new Set(["minimum"])],
  [new Set(["upper"]), new Set(["lower"])],
  [new Set(["acidic"]), new Set(["alkaline"])],
  [new Set(["active"]), new Set(["inactive", "dormant"])],
  [new Set(["common", "frequent"]), new Set(["rare", "uncommon", "infrequent"])],
  [new Set(["wide", "broad"]), new Set(["narrow"])],
  [new Set(["thick"]), new Set(["thin"])],
  [new Set(["deep"]), new Set(["shallow"])],
  [new Set(["natural"]), new Set(["artificial", "synthetic"])],
  [new Set(["easy"]), new Set(["complex", "complicated", "difficult"])],
  [new Set(["domestic"]), new Set(["foreign", "international"])],
  [new Set(["urban"]), new Set(["rural"])],
  [new Set(["majority"]), new Set(["minority"])],
  [new Set(["vertical"]), new Set(["horizontal"])],
  [new Set(["input"]), new Set(["output"])],
  [new Set(["summer"]), new Set(["winter"])],
  [new Set(["solid"]), new Set(["liquid"]), new Set(["gas", "gaseous"])],
  [new Set(["directly"]), new Set(["inversely"])],
  [new Set(["clockwise"]), new Set(["anticlockwise", "counterclockwise", "counter-clockwise", "anti-clockwise"])],
  [new Set(["pre-tax", "pretax"]), new Set(["after-tax", "post-tax"])],
  [new Set(["inner"]), new Set(["outer"])],
  [new Set(["upstream"]), new Set(["downstream"])],
  [new Set(["uphill"]), new Set(["downhill"])],
  [new Set(["inbound"]), new Set(["outbound"])],
  [new Set(["permanent"]), new Set(["temporary"])],
  [new Set(["stable"]), new Set(["unstable"])],
  [new Set(["reversible"]), new Set(["irreversible"])],
  [new Set(["finite"]), new Set(["infinite"])],
  [new Set(["rational"]), new Set(["irrational"])],
  [new Set(["organic"]), new Set(["inorganic"])],
  [new Set(["conscious"]), new Set(["unconscious"])],
  [new Set(["soluble"]), new Set(["insoluble"])],
  [new Set(["transparent"]), new Set(["opaque"])],
  [new Set(["renewable"]), new Set(["nonrenewable", "non-renewable"])],
  [new Set(["conductor"]), new Set(["insulator"])],
  [new Set(["surplus"]), new Set(["deficit"])],
  [new Set(["inflation"]), new Set(["deflation"])],
  [new Set(["guilty"]), new Set(["innocent"])],
  [new Set(["singular"]), new Set(["plural"])],
  // science and medicine
  [new Set(["overactive", "hyperactive"]), new Set(["underactive", "hypoactive"])],
  [new Set(["hyperthyroidism"]), new Set(["hypothyroidism"])],
  [new Set(["hypertension"]), new Set(["hypotension"])],
  [new Set(["hyperglycemia", "hyperglycaemia"]), new Set(["hypoglycemia", "hypoglycaemia"])],
  [new Set(["benign"]), new Set(["malignant", "cancerous"])],
  [new Set(["innate"]), new Set(["adaptive", "acquired"])],
  [new Set(["voluntary"]), new Set(["involuntary"])],
  [new Set(["aerobic"]), new Set(["anaerobic"])],
  [new Set(["endothermic"]), new Set(["exothermic"])],
  [new Set(["oxidation"]), new Set(["reduction"])],
  [new Set(["anode"]), new Set(["cathode"])],
  [new Set(["prokaryotic", "prokaryote"]), new Set(["eukaryotic", "eukaryote"])],
  [new Set(["dominant"]), new Set(["recessive"])],
  [new Set(["homozygous"]), new Set(["heterozygous"])],
  [new Set(["haploid"]), new Set(["diploid"])],
  [new Set(["mitosis"]), new Set(["meiosis"])],
  [new Set(["concave"]), new Set(["convex"])],
  [new Set(["systolic"]), new Set(["diastolic"])],
  [new Set(["sympathetic"]), new Set(["parasympathetic"])],
  [new Set(["afferent"]), new Set(["efferent"])],
  [new Set(["agonist"]), new Set(["antagonist"])],
  [new Set(["protagonist"]), new Set(["antagonist"])],
  [new Set(["excitatory"]), new Set(["inhibitory"])],
  [new Set(["anterior"]), new Set(["posterior"])],
  [new Set(["dorsal"]), new Set(["ventral"])],
  [new Set(["proximal"]), new Set(["distal"])],
  [new Set(["nocturnal"]), new Set(["diurnal"])],
  [new Set(["vertebrate"]), new Set(["invertebrate"])],
  [new Set(["ionic"]), new Set(["covalent"])],
  [new Set(["herbivore", "herbivorous"]), new Set(["carnivore", "carnivorous"]), new Set(["omnivore", "omnivorous"])],
  // computing
  [new Set(["mutable"]), new Set(["immutable"])],
  [new Set(["synchronous"]), new Set(["asynchronous"])],
  [new Set(["static"]), new Set(["dynamic"])],
  // Korean
  [new Set(["상승", "증가", "오르"]), new Set(["하락", "감소", "내리", "떨어지"])],
  [new Set(["높"]), new Set(["낮"])],
  [new Set(["크", "큰"]), new Set(["작", "작은"])],
  ["동", "서", "남", "북"].map((c) => new Set([c])),
];

/** Where a word stands in {@link OPPOSITES}: its entry and pole, for each entry it is in. */
interface PolePlace {
  entry: number;
  pole: number;
}

/** Each listed opposite word's places, under the word and under its synonym key. */
const POLES: ReadonlyMap<string, readonly PolePlace[]> = (() => {
  const poles = new Map<string, PolePlace[]>();
  const add = (word: string, place: PolePlace): void => {
    const list = poles.get(word) ?? [];
    if (!list.some((p) => p.entry === place.entry && p.pole === place.pole)) list.push(place);
    poles.set(word, list);
  };
  OPPOSITES.forEach((entryPoles, entry) =>
    entryPoles.forEach((words, pole) =>
      words.forEach((w) => {
        add(w, { entry, pole });
        add(synonymKey(w), { entry, pole });
      }),
    ),
  );
  return poles;
})();

const NOWHERE: readonly PolePlace[] = [];

/** A word's places in {@link OPPOSITES}: its own, and its synonyms' ("perish" stands where "die" does). */
function placesOf(word: string): readonly PolePlace[] {
  const own = POLES.get(word);
  const key = synonymKey(word);
  const viaKey = key === word ? undefined : POLES.get(key);
  if (own && viaKey) return [...own, ...viaKey];
  return own ?? viaKey ?? NOWHERE;
}

/** Whether a word has an opposite in {@link OPPOSITES} (itself or through a synonym). */
export function hasOpposite(word: string): boolean {
  return placesOf(word).length > 0;
}

/**
 * Whether two words contradict each other: in different poles of one entry
 * of {@link OPPOSITES} (themselves or through their synonyms), and in the
 * same pole of none (synonyms never clash).
 *
 * @example
 * opposite("win", "lose");     // → true
 * opposite("perish", "survive"); // → true
 * opposite("rise", "climb");   // → false
 */
export function opposite(a: string, b: string): boolean {
  if (a === b) return false;
  const x = placesOf(a);
  const y = placesOf(b);
  let clash = false;
  for (const p of x) {
    for (const q of y) {
      if (p.entry !== q.entry) continue;
      if (p.pole === q.pole) return false;
      clash = true;
    }
  }
  return clash;
}

/** The words listed as opposites of `word` (as written in {@link OPPOSITES}), for matching a text's words as written. */
export function oppositeWords(word: string): string[] {
  const out: string[] = [];
  for (const at of placesOf(word)) {
    OPPOSITES[at.entry]!.forEach((words, pole) => {
      if (pole !== at.pole) for (const w of words) if (!out.includes(w) && opposite(word, w)) out.push(w);
    });
  }
  return out;
}
