/**
 * Values in text for the offline judge: numbers (with separators, signs,
 * number words, scale words and letters, fractions), dates in the common
 * formats, clock times, ratios, and units
 * normalised to one dimension each, so that "Jan 15, 1967" equals
 * "15 January 1967" and "roughly 300,000 km per second" is close to
 * "299,792,458 metres per second". Language-agnostic where it can be
 * (digits, symbols, ISO dates, Korean 년/월/일 and counters).
 */

import { Memo } from "./memo";
import { ownKeys } from "./own-keys";

/** What a value measures; values of different dimensions never clash. */
export type Dimension =
  | "year"
  | "date"
  | "number"
  | "percent"
  | "money"
  | "temperature-c"
  | "temperature-f"
  | "temperature-k"
  | "degree"
  | "length"
  | "mass"
  | "duration"
  | "speed"
  | "area"
  | string;

/** A value found in a text. */
export interface TextValue {
  /** What it measures (units are converted: km → m, miles → m). */
  dimension: Dimension;
  /** The number in the dimension's base unit (years for `year`; for dates, see `date`). */
  value: number;
  /** Year, month (1–12) and day of a date, each when stated. */
  date?: { year?: number; month?: number; day?: number };
  /** A year written with two digits and no century ("July 20, '69", "in '05"): its last two digits are compared. */
  shortYear?: boolean;
  /** Hedged ("about", "roughly", "약", "정도"): compared at the precision it is written to. */
  approximate: boolean;
  /** A clock time written without am/pm at an hour of 1–12 ("9:00", "9 o'clock"): that time or twelve hours later. */
  twelveHour?: boolean;
  /** A bare four-digit number read as a year that may be a count ("The army had 1500."): a count against a count written with separators or words. */
  yearOrCount?: boolean;
  /**
   * The place of its last significant digit, in the base unit: 100 for
   * "3,500 km" (× 1000: 100,000 m), 0.01 for "1.61", 1 for "494"; undefined
   * for dates.
   */
  step?: number;
  /**
   * Stated in a US customary or imperial unit (pounds, miles, °F, cups): against the same quantity
   * in a metric unit, one of the two is a conversion, rounded by whoever wrote it.
   */
  customary?: boolean;
  /** The factor its unit multiplied the number as written by (1000 for "5 km", 86400 for "366 days"), when it has a unit. */
  unitFactor?: number;
  /** The text as written, for reasons. */
  text: string;
  /** Where it starts and ends in the text. */
  start: number;
  end: number;
}

const MONTHS: Readonly<Record<string, number>> = ownKeys<number>({
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11,
  dec: 12, december: 12,
});
const MONTH_NAMES = "jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

const SMALL_NUMBERS: Readonly<Record<string, number>> = ownKeys<number>({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18,
  nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
});
const SCALES: Readonly<Record<string, number>> = ownKeys<number>({
  dozen: 12, hundred: 1e2, thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12,
  백: 1e2, 천: 1e3, 만: 1e4, 백만: 1e6, 천만: 1e7, 억: 1e8, 조: 1e12,
});

/**
 * Unit words and symbols → [dimension, factor to the base unit, US customary or imperial].
 * Longest spellings are tried first. Units whose size differs between the US and the UK
 * (pints, quarts, the short and the long ton) are left out: either reading could be wrong.
 */
const UNITS: ReadonlyArray<readonly [RegExp, Dimension, number, boolean?]> = [
  [/^(?:°\s?c\b|℃|(?:degrees?|deg\.?) ?(?:celsius|centigrade|c\b)|celsius|섭씨\s?도?|도씨)/iu, "temperature-c", 1],
  [/^(?:°\s?f\b|℉|(?:degrees?|deg\.?) ?(?:fahrenheit|f\b)|fahrenheit|화씨\s?도?)/iu, "temperature-f", 1, true],
  // A capital C or F alone right after a number ("100 C", "212F"), as temperatures are written without the degree sign.
  [/^C(?![\p{L}\p{N}])/u, "temperature-c", 1],
  [/^F(?![\p{L}\p{N}])/u, "temperature-f", 1, true],
  // Kelvin: the word, "°K", or a capital K after a space ("0 K"; a K glued to a number, "95K", is thousands: see scaleAfter).
  [/^(?:kelvins?\b|°\s?K\b|K(?![\p{L}\p{N}]))/u, "temperature-k", 1],
  [/^(?:°|degrees?\b|도(?![\p{L}]))/iu, "degree", 1],
  [/^(?:%|percent\b|per cent\b|퍼센트|프로)/iu, "percent", 1],
  // Data sizes: decimal (kB, MB, GB, TB) and binary (KiB, MiB, GiB, TiB) kept apart, as each is written.
  [/^(?:tib\b|tebibytes?)/iu, "data", 2 ** 40],
  [/^(?:gib\b|gibibytes?)/iu, "data", 2 ** 30],
  [/^(?:mib\b|mebibytes?)/iu, "data", 2 ** 20],
  [/^(?:kib\b|kibibytes?)/iu, "data", 2 ** 10],
  [/^(?:tb\b|terabytes?)/iu, "data", 1e12],
  [/^(?:gb\b|gigabytes?)/iu, "data", 1e9],
  [/^(?:mb\b|megabytes?)/iu, "data", 1e6],
  [/^(?:kb\b|kilobytes?)/iu, "data", 1e3],
  [/^(?:bytes?\b)/iu, "data", 1],
  [/^(?:ghz\b|gigahertz)/iu, "frequency", 1e9],
  [/^(?:mhz\b|megahertz)/iu, "frequency", 1e6],
  [/^(?:khz\b|kilohertz)/iu, "frequency", 1e3],
  [/^(?:hz\b|hertz\b|헤르츠)/iu, "frequency", 1],
  [/^(?:km\/h|kph|kilometres? per hour|kilometers? per hour|킬로미터 ?毎?시)/iu, "speed-kmh", 1],
  [/^(?:mph|miles? per hour)/iu, "speed-kmh", 1.609344, true],
  [/^(?:knots?\b|kn\b)/iu, "speed-kmh", 1.852, true],
  [/^(?:m\/s|metres? per second|meters? per second)/iu, "speed", 1],
  [/^(?:km\/s|kilometres? per second|kilometers? per second|km per second)/iu, "speed", 1000],
  [/^(?:miles? per second)/iu, "speed", 1609.344, true],
  [/^(?:feet per second|ft\/s)/iu, "speed", 0.3048, true],
  [/^(?:km²|km2\b|sq(?:uare)? ?km\b|square kilomet(?:re|er)s?|제곱킬로미터)/iu, "area", 1e6],
  [/^(?:mi²|sq(?:uare)? ?mi(?:les?)?\b)/iu, "area", 2_589_988.110336, true],
  [/^(?:ft²|sq(?:uare)? ?f(?:ee|oo)?t\b)/iu, "area", 0.09290304, true],
  [/^(?:m²|sq(?:uare)? ?m\b|square met(?:re|er)s?)/iu, "area", 1],
  [/^(?:cm²|square centimet(?:re|er)s?)/iu, "area", 1e-4],
  [/^(?:hectares?|ha\b)/iu, "area", 1e4],
  [/^(?:acres?\b)/iu, "area", 4046.8564224, true],
  [/^(?:m³|cubic met(?:re|er)s?)/iu, "volume", 1000],
  [/^(?:cm³|cubic centimet(?:re|er)s?|cc\b)/iu, "volume", 0.001],
  [/^(?:light[- ]years?)/iu, "length", 9.4607304725808e15],
  [/^(?:nautical miles?)/iu, "length", 1852, true],
  [/^(?:kilomet(?:re|er)s?|km\b|킬로미터|킬로)/iu, "length", 1000],
  [/^(?:centimet(?:re|er)s?|cm\b|센티미터|센티)/iu, "length", 0.01],
  [/^(?:millimet(?:re|er)s?|mm\b|밀리미터)/iu, "length", 0.001],
  [/^(?:met(?:re|er)s?\b|m\b|미터)/iu, "length", 1],
  [/^(?:miles?\b|mi\b|마일)/iu, "length", 1609.344, true],
  [/^(?:feet\b|foot\b|ft\b)/iu, "length", 0.3048, true],
  [/^(?:inch(?:es)?\b)/iu, "length", 0.0254, true],
  [/^(?:yards?\b|yds?\b)/iu, "length", 0.9144, true],
  [/^(?:litres?|liters?|l\b|리터)/iu, "volume", 1],
  [/^(?:millilitres?|milliliters?|ml\b|밀리리터)/iu, "volume", 0.001],
  [/^(?:imperial gallons?)/iu, "volume", 4.54609, true],
  [/^(?:gallons?|gal\b)/iu, "volume", 3.785411784, true],
  [/^(?:fluid ounces?|fl\.? ?oz\b)/iu, "volume", 0.0295735295625, true],
  [/^(?:cups?\b)/iu, "volume", 0.2365882365, true],
  [/^(?:tablespoons?|tbsp\b)/iu, "volume", 0.01478676478125, true],
  [/^(?:teaspoons?|tsp\b)/iu, "volume", 0.00492892159375, true],
  [/^(?:kilograms?|kg\b|킬로그램)/iu, "mass", 1000],
  [/^(?:milligrams?|mg\b|밀리그램)/iu, "mass", 0.001],
  [/^(?:micrograms?|µg\b|μg\b|mcg\b)/iu, "mass", 1e-6],
  [/^(?:grams?\b|g\b|그램)/iu, "mass", 1],
  // Pounds of weight: "lb", "lbs", or "pounds" in a text about no money (see POUND_MONEY).
  [/^(?:pounds?\b|lbs?\b)/iu, "mass", 453.59237, true],
  [/^(?:ounces?\b|oz\b)/iu, "mass", 28.349523125, true],
  [/^(?:tonnes?|tons?\b|톤)/iu, "mass", 1e6],
  [/^(?:years?\b|yrs?\b)/iu, "duration-year", 1],
  [/^(?:months?\b|개월)/iu, "duration-month", 1],
  [/^(?:days?\b)/iu, "duration", 86400],
  [/^(?:hours?\b|hrs?\b|시간)/iu, "duration", 3600],
  [/^(?:minutes?\b|mins?\b|분(?![\p{L}]))/iu, "duration", 60],
  [/^(?:seconds?\b|secs?\b|s\b|초(?![\p{L}]))/iu, "duration", 1],
  [/^(?:dollars?\b|usd\b|달러)/iu, "money", 1],
  [/^(?:won\b|원(?![\p{L}]))/iu, "money-krw", 1],
  [/^(?:euros?\b|eur\b)/iu, "money-eur", 1],
  // Pence, a hundredth of the pound, which is read as the dollar is (see moneyDimension).
  [/^(?:pence\b|pennies\b|penny\b)/iu, "money", 0.01],
  [/^(?:명|people\b|persons?\b)/iu, "people", 1],
];

/** Words before a number that hedge it. */
const HEDGE_BEFORE = /(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|circa|ca\.|~|over|more than|less than|under|just over|just under|약|대략|거의)\s*$/iu;
/** Words after a number (and its unit) that hedge it. */
const HEDGE_AFTER = /^\s*(?:or so|-ish|정도|가량|여|쯤|안팎)/u;
const MINUS_BEFORE = /(?:minus|negative|영하)\s*$/iu;
/** A currency symbol or code right before a number ("$5", "€ 20", "USD 5,000,000"). */
const MONEY_BEFORE = /(?:[$€£₩]|\b(?:USD|EUR|GBP|KRW))\s?$/u;

/** The dimension of a currency written before a number (the pound is read as the dollar is, as before). */
function moneyDimension(written: string): Dimension {
  const currency = written.trim();
  if (currency === "₩" || currency === "KRW") return "money-krw";
  if (currency === "€" || currency === "EUR") return "money-eur";
  return "money";
}

/** A number in scientific notation: its mantissa and its power of ten (after ^, in superscript, or after e). */
const SCIENTIFIC = /(?<![\d.])(\d+(?:\.\d+)?)(?:\s*[×x*]\s*10\s*\^?\s*([-−]?\d{1,3}|[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})|e([-−+]?\d{1,3}))(?![\d\p{L}])/gu;

/** Superscript digits and minus as plain ones. */
const SUPERSCRIPT_DIGITS: Readonly<Record<string, string>> = ownKeys<string>({ "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9", "⁻": "-", "−": "-" });

/** A number in digits, with thousands separators (",", " ", thin spaces) or a decimal point. */
const DIGITS = /[-−–]?\d{1,3}(?:(?:,|\u202f|\u00a0| )\d{3})+(?:\.\d+)?(?!\d)|[-−–]?\d+(?:\.\d+)?/gu;
const UNIT_DIGITS = "one|two|three|four|five|six|seven|eight|nine";
const TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen";
const TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety";
/** A number word under a hundred ("six", "sixty-nine", "twenty five"). */
const NUMBER_WORD = `(?:${Object.keys(SMALL_NUMBERS).join("|")})(?:[- ](?:${UNIT_DIGITS}))?`;
const SCALE_RUN = "(?:\\s+(?:hundred|thousand|million|billion|trillion)\\b)+";
/** A year read aloud in two pairs: "nineteen sixty-nine", "ten sixty-six", "eighteen twelve", "twenty twenty-one", "nineteen oh five". */
const SPOKEN_YEAR = `(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\\s+(?:${TEENS}|(?:${TENS})(?:[- ](?:${UNIT_DIGITS}))?|oh[- ](?:${UNIT_DIGITS}))\\b(?![-\\p{L}])`;
/**
 * A number in words: a year read aloud, or number words with scales, joined after a scale by
 * "and", a space or a comma before more scales ("two hundred and six", "one thousand two hundred",
 * "a hundred", "three million, four hundred thousand"); see {@link wordNumbers} for the parts kept together.
 */
const NUMBER_WORDS = new RegExp(
  `\\b(?:(${SPOKEN_YEAR})|(?:${NUMBER_WORD}|a(?=${SCALE_RUN}))\\b(?:${SCALE_RUN}(?:(?:\\s+and\\s+|\\s+)${NUMBER_WORD}\\b(?:${SCALE_RUN})?|,\\s+${NUMBER_WORD}${SCALE_RUN})*)?)`,
  "giu",
);

const MONTH_HINT = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
/** A date in ISO form, also with a time after it ("1989-11-09T00:00"). */
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})(?![\d-])/gu;
/** A year in a date: four digits, or two after an apostrophe ("July 20, '69"). */
const DATE_YEAR = "(\\d{4}|['’]\\d{2})";
const MONTH_DAY_YEAR = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+${DATE_YEAR}\\b`, "giu");
const DAY_MONTH_YEAR = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+(?:of\\s+)?(${MONTH_NAMES})\\.?,?\\s+${DATE_YEAR}\\b`, "giu");
const MONTH_YEAR = new RegExp(`\\b(${MONTH_NAMES})\\.?,?\\s+(?:of\\s+)?${DATE_YEAR}\\b`, "giu");
/** Day, month and year with dots, as most of Europe writes them: "04.07.1776", "9. 11. 1989". */
const DOTTED_DAY_FIRST = /(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?![\d]|\.\d)/gu;
/** A year of two digits after an apostrophe, alone ("in '69", "the class of ’05"); not "'60s" or a quoted '42'. */
const SHORT_YEAR = /(?<=^|[\s(])['’](\d{2})(?![\d\p{L}'’])/gu;
const MONTH_DAY = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?!\\s*,?\\s*\\d)`, "giu");
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.)?\\s+(?:of\\s+)?(${MONTH_NAMES})\\b(?!\\.?,?\\s+(?:of\\s+)?\\d{4})`, "giu");
/** Dates with Korean 년/월/일, or the Chinese and Japanese 年/月/日 ("1989年11月9日"). */
const KOREAN_DATE = /(\d{3,4})\s*[년年](?:\s*(\d{1,2})\s*[월月])?(?:\s*(\d{1,2})\s*[일日])?|(\d{1,2})\s*[월月](?:\s*(\d{1,2})\s*[일日])?/gu;
const SLASH_DATE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/gu;
/** Year, month and day with slashes, as China and Japan write them: "1989/11/09". */
const YEAR_SLASH_DATE = /\b(\d{4})\/(\d{1,2})\/(\d{1,2})\b(?!\/)/gu;
/** Year, month and day with dots, as Korean (and German) write them: "2019. 6. 25.", "1446.10.9". */
const DOTTED_DATE = /(?<![\d.])(\d{4})\.\s?(\d{1,2})\.\s?(\d{1,2})(?!\d)\.?/gu;
/** A Korean number in parts, largest first: "38만 4천" (384,000), "3억 5천만", "1만 2천 500". */
const KOREAN_NUMBER = /(?<![\d.,])\d+(?:\.\d+)?\s?(?:조|억|만|천)(?:\s?\d+(?:\.\d+)?\s?(?:천만|백만|억|만|천|백))+(?:\s?\d+(?![\d.,]))?/gu;
/** Korean native numbers: units and tens ("마흔여섯" = 46, "스물세" = 23, "한" = 1). */
const KOREAN_NATIVE_UNITS: Readonly<Record<string, number>> = ownKeys<number>({
  하나: 1, 한: 1, 둘: 2, 두: 2, 셋: 3, 세: 3, 석: 3, 넷: 4, 네: 4, 넉: 4, 다섯: 5, 여섯: 6, 일곱: 7, 여덟: 8, 아홉: 9,
});
const KOREAN_NATIVE_TENS: Readonly<Record<string, number>> = ownKeys<number>({
  열: 10, 스물: 20, 스무: 20, 서른: 30, 마흔: 40, 쉰: 50, 예순: 60, 일흔: 70, 여든: 80, 아흔: 90,
});
/** Counters after a Korean native number; 해 and 년 make a number of years. (번 is left out: "한 번씩", "한 번 더" are idioms more often than counts.) */
const KOREAN_COUNTER = "개|쌍|명|마리|가지|권|곳|살|시간|개월|달|해|년|대|채|척|잔|그루|송이|장|칸|층|편|벌|켤레|자루|병|군데|조각";
const KOREAN_NATIVE_NUMBER = new RegExp(
  `(?<![\\uAC00-\\uD7A3])(${Object.keys(KOREAN_NATIVE_TENS).join("|")})?(${Object.keys(KOREAN_NATIVE_UNITS).join("|")})?\\s?(${KOREAN_COUNTER})` +
    // The counter ends its word, or a particle or copula follows it ("개로", "쌍을", "해이고"), not another word ("한 해결책").
    `(?=[^\\uAC00-\\uD7A3]|$|(?:이고|이며|이다|이에요|예요|입니다|으로|에는|에서|이|가|을|를|은|는|의|에|로|도|만|씩|째|간|뒤|후|동안)(?![\\uAC00-\\uD7A3]))`,
  "gu",
);
/** Whether a text may hold a Korean native number before a counter (the gate before the full pattern). */
const KOREAN_NATIVE_HINT = new RegExp(`(?:${[...Object.keys(KOREAN_NATIVE_TENS), ...Object.keys(KOREAN_NATIVE_UNITS)].join("|")})\\s?(?:${KOREAN_COUNTER})`, "u");

/** An ordinal in digits ("26th", "3rd"), read as an ordinal, not a count. */
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th)\b/i;
/** "century" after an ordinal ("the 15th century", "the fifteenth century"). */
const CENTURY_AFTER = /^[\s-]centur(?:y|ies)\b/iu;
/** Ordinal words past "second" (whose other senses are common), and compounds ("twenty-sixth"). */
const ORDINAL_WORDS: Readonly<Record<string, number>> = ownKeys<number>({
  third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11, twelfth: 12,
  thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19,
  twentieth: 20, thirtieth: 30, fortieth: 40, fiftieth: 50, sixtieth: 60, seventieth: 70, eightieth: 80, ninetieth: 90, hundredth: 100,
});
/** Every ordinal word ends in "th", "st", "nd" or "rd" ("first", "second", "third", "twelfth"): the cheap gate before the full pattern. */
const ORDINAL_HINT = /(?:th|st|nd|rd)\b/i;
const ORDINAL_WORD = new RegExp(
  `\\b(?:(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-)?(first|second|${Object.keys(ORDINAL_WORDS).join("|")})\\b`,
  "giu",
);
const YEAR_WORD = /^\s*(?:년|년도)/u;
/** Numerators of fractions in words: "one" to "nine" ("a" and "an" only before "of", "a", "the"). */
const FRACTION_COUNT = "one|two|three|four|five|six|seven|eight|nine";
/** "every fourth year", "every other month", "every 2nd day" (the ordinal, then the unit). */
const EVERY_NTH = new RegExp(`\\bevery\\s+(other|first|second|${Object.keys(ORDINAL_WORDS).join("|")}|\\d+(?=st|nd|rd|th))(?:st|nd|rd|th)?\\s+(year|month|day|hour|minute)\\b`, "giu");

/** "a", "an" or a count from one to nine right before an ordinal word: a fraction ("a third", "two fifths"). */
const FRACTION_COUNT_BEFORE = new RegExp(`\\b(?:a|an|${FRACTION_COUNT})[\\s-]+$`, "iu");

function parseDigits(text: string): number {
  const sign = /^[-−–]/.test(text) ? -1 : 1;
  const body = text.replace(/^[-−–]/, "").replace(/[,\u202f\u00a0 ]/g, "");
  return sign * Number(body);
}

function parseNumberWords(text: string): number {
  let total = 0;
  let current = 0;
  for (const word of text.toLowerCase().split(/[\s,-]+/)) {
    const small = SMALL_NUMBERS[word];
    if (small !== undefined) current += small;
    else if (word === "hundred") current = (current || 1) * 100;
    else if (word === "thousand" || word === "million" || word === "billion" || word === "trillion") {
      total += (current || 1) * (SCALES[word] ?? 1);
      current = 0;
    }
  }
  return total + current;
}

const SCALE_NAME = /^(?:hundred|thousand|million|billion|trillion)$/iu;
const TENS_WORD = new RegExp(`^(?:${TENS})$`, "iu");
const UNIT_WORD = new RegExp(`^(?:${UNIT_DIGITS})$`, "iu");

/**
 * The numbers in a match of {@link NUMBER_WORDS}: a year read aloud ("nineteen sixty-nine" →
 * 1969), else its parts (a number word and its scales) kept together while each part is smaller
 * than the last scale before it ("two hundred and six" → 206; "three hundred and four hundred"
 * → 300 and 400).
 */
function wordNumbers(m: RegExpMatchArray): Array<{ start: number; end: number; value: number; step: number; year?: boolean }> {
  const at = m.index!;
  const text = m.input!;
  if (m[1] !== undefined) {
    const [first, ...rest] = m[1].toLowerCase().split(/\s+/);
    const century = SMALL_NUMBERS[first!] ?? 0;
    const within = parseNumberWords(rest.join(" ").replace(/^oh[- ]/, ""));
    return [{ start: at, end: at + m[0].length, value: century * 100 + within, step: 1, year: true }];
  }
  // Parts: a number word (or "a") and the scales after it.
  const parts: Array<{ start: number; end: number; scale: number }> = [];
  for (const w of m[0].matchAll(/[\p{L}]+(?:-[\p{L}]+)?/gu)) {
    const word = w[0].toLowerCase();
    if (word === "and") continue;
    const start = at + w.index;
    const end = start + w[0].length;
    const last = parts[parts.length - 1];
    if (SCALE_NAME.test(word)) {
      if (last) {
        last.end = end;
        last.scale = SCALES[word] ?? 1;
      }
    } else if (last && last.scale === 1 && TENS_WORD.test(text.slice(last.start, last.end)) && UNIT_WORD.test(word)) {
      last.end = end; // "twenty five"
    } else {
      parts.push({ start, end, scale: 1 });
    }
  }
  const out: Array<{ start: number; end: number; value: number; step: number }> = [];
  let i = 0;
  while (i < parts.length) {
    let j = i;
    let value = parseNumberWords(text.slice(parts[i]!.start, parts[i]!.end));
    // Join the next part while it is smaller than this one's last scale.
    while (j + 1 < parts.length && parts[j]!.scale > 1) {
      const next = parseNumberWords(text.slice(parts[j + 1]!.start, parts[j + 1]!.end));
      if (next >= parts[j]!.scale) break;
      j++;
      value = parseNumberWords(text.slice(parts[i]!.start, parts[j]!.end));
    }
    out.push({ start: parts[i]!.start, end: parts[j]!.end, value, step: trailingZeroStep(value) });
    i = j + 1;
  }
  return out;
}

interface Span {
  start: number;
  end: number;
}

function overlaps(spans: readonly Span[], start: number, end: number): boolean {
  return spans.some((s) => start < s.end && end > s.start);
}

function monthOf(name: string): number {
  return MONTHS[name.toLowerCase().replace(/\.$/, "")] ?? MONTHS[name.toLowerCase().slice(0, 3)] ?? 0;
}

/** A year as written in a date: four digits, or two after an apostrophe (then without its century). */
function yearOf(written: string): number {
  return Number(written.replace(/^['’]/u, ""));
}

function dateValue(text: string, start: number, end: number, year?: number, month?: number, day?: number): TextValue {
  const date: { year?: number; month?: number; day?: number } = {};
  const short = /^['’]\d{2}$/u.test(text) || /[\s,]['’]\d{2}$/u.test(text);
  if (year !== undefined) date.year = year;
  if (month !== undefined) date.month = month;
  if (day !== undefined) date.day = day;
  const onlyYear = month === undefined && day === undefined;
  return {
    dimension: onlyYear ? "year" : "date",
    value: (year ?? 0) * 10000 + (month ?? 0) * 100 + (day ?? 0),
    date,
    ...(short && year !== undefined ? { shortYear: true } : {}),
    approximate: false,
    text,
    start,
    end,
  };
}

/** Dates written with month names, ISO, slashes, Korean 년/월/일 or 年/月/日. */
function findDates(text: string): TextValue[] {
  const found: TextValue[] = [];
  const taken: Span[] = [];
  const add = (v: TextValue): void => {
    if (overlaps(taken, v.start, v.end)) return;
    taken.push({ start: v.start, end: v.end });
    found.push(v);
  };
  const months = MONTH_HINT.test(text);
  if (/\d-\d/.test(text)) for (const m of text.matchAll(ISO_DATE)) add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[1]), Number(m[2]), Number(m[3])));
  if (months) for (const m of text.matchAll(MONTH_DAY_YEAR)) add(dateValue(m[0], m.index, m.index + m[0].length, yearOf(m[3]!), monthOf(m[1]!), Number(m[2])));
  if (months) for (const m of text.matchAll(DAY_MONTH_YEAR)) add(dateValue(m[0], m.index, m.index + m[0].length, yearOf(m[3]!), monthOf(m[2]!), Number(m[1])));
  if (months) for (const m of text.matchAll(MONTH_YEAR)) add(dateValue(m[0], m.index, m.index + m[0].length, yearOf(m[2]!), monthOf(m[1]!)));
  if (months) for (const m of text.matchAll(MONTH_DAY)) {
    if (m[1]!.toLowerCase() === "may" && !/^\s*\d/.test(text.slice(m.index + 3))) continue;
    add(dateValue(m[0], m.index, m.index + m[0].length, undefined, monthOf(m[1]!), Number(m[2])));
  }
  if (months) for (const m of text.matchAll(DAY_MONTH)) add(dateValue(m[0], m.index, m.index + m[0].length, undefined, monthOf(m[2]!), Number(m[1])));
  if (text.includes("/")) for (const m of text.matchAll(YEAR_SLASH_DATE)) {
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[1]), month, day));
  }
  if (text.includes("/")) for (const m of text.matchAll(SLASH_DATE)) {
    // Ambiguous day/month order: read as month/day unless the first part cannot be a month.
    const a = Number(m[1]);
    const b = Number(m[2]);
    const [month, day] = a > 12 ? [b, a] : [a, b];
    add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[3]), month, day));
  }
  if (/\d\.\s?\d{1,2}\.\s?\d{4}/.test(text)) for (const m of text.matchAll(DOTTED_DAY_FIRST)) {
    const day = Number(m[1]);
    const month = Number(m[2]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[3]), month, day));
  }
  if (/['’]\d{2}/u.test(text)) for (const m of text.matchAll(SHORT_YEAR)) add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[1])));
  if (/\d{4}\.\s?\d/.test(text)) for (const m of text.matchAll(DOTTED_DATE)) {
    const month = Number(m[2]);
    const day = Number(m[3]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) add(dateValue(m[0], m.index, m.index + m[0].length, Number(m[1]), month, day));
  }
  if (/[년월年月]/.test(text)) for (const m of text.matchAll(KOREAN_DATE)) {
    const year = m[1] === undefined ? undefined : Number(m[1]);
    const month = m[2] ?? m[4];
    const day = m[3] ?? m[5];
    add(dateValue(m[0], m.index, m.index + m[0].length, year, month === undefined ? undefined : Number(month), day === undefined ? undefined : Number(day)));
  }
  return found;
}

/** All unit spellings in one pattern, one capture group per entry of {@link UNITS}, tried in order. */
const UNIT_PATTERN = new RegExp(`^(?:${UNITS.map(([pattern]) => `(${pattern.source.replace(/^\^/, "")})`).join("|")})`, "iu");

/**
 * Words that make "pounds" money, not weight, when the text has them ("costs 5 pounds", "a fine of
 * 50 pounds"); else pounds are weight ("weighs about 8 pounds").
 */
const POUND_MONEY = /£|\b(?:GBP|sterling|costs?|costing|price[sd]?|paid|pay(?:s|ing)?|spen[dt]|worth|salary|salaries|wages?|fees?|fined?|fines|budget|earn(?:s|ed|ing)?|charged?|tax(?:es)?|income|revenue|profits?|sold|buy|bought|prizes?|rewards?|notes?|coins?|currency|money|cash|debts?|loans?|funds?|funding|rent)\b/iu;

/** The unit right after a number (one space or a hyphen between), with its dimension, factor and length, and whether it is a US customary or imperial unit. */
function unitAfter(rest: string, text: string): { dimension: Dimension; factor: number; length: number; customary: boolean } | undefined {
  // One space, or a hyphen before a unit in words ("a 27-inch screen", "a 40-acre farm", "a six-year term").
  const lead = /^-\p{L}/u.test(rest) ? 1 : rest.length - rest.trimStart().length;
  if (lead > 1) return undefined;
  const m = UNIT_PATTERN.exec(lead === 0 ? rest : rest.slice(lead));
  if (!m) return undefined;
  const index = m.findIndex((group, i) => i > 0 && group !== undefined);
  const unit = UNITS[index - 1];
  if (!unit) return undefined;
  // "Pounds" in a text about money are pounds sterling, read as the pound sign is.
  if (unit[1] === "mass" && /^pound/iu.test(m[0]) && POUND_MONEY.test(text)) return { dimension: "money", factor: 1, length: lead + m[0].length, customary: false };
  return { dimension: unit[1], factor: unit[2], length: lead + m[0].length, customary: unit[3] === true };
}

/** A scale word right after a number ("1.5 million", "95k", "5천만"). */
const SCALE_WORD = /^\s?(hundred|thousand|million|billion|trillion|dozen|mn|bn|k|천만|백만|천|만|억|조)(?![a-z])/iu;
/** A capital M or B glued to a number ("2.1M", "3B"): millions and billions (a lower-case "m" stays metres). */
const SCALE_LETTER = /^(M|B)(?![\p{L}\p{N}])/u;
/** After a currency, M, MM or B in either case, glued or after one space ("$5M", "$5m", "£2 B", "$5MM"). */
const MONEY_SCALE_LETTER = /^\s?(MM|M|B|m|b)(?![\p{L}\p{N}])/u;

/** A scale right after a number ("1.5 million", "95k", "5천만", "2.1M"; "$5m" after a currency). */
function scaleAfter(rest: string, money: boolean): { factor: number; length: number } | undefined {
  const m = SCALE_WORD.exec(rest) ?? SCALE_LETTER.exec(rest) ?? (money ? MONEY_SCALE_LETTER.exec(rest) : null);
  if (!m) return undefined;
  // A capital K after a space is kelvin ("0 K"), save after a currency ("$50 K").
  if (!money && m[0] === " K") return undefined;
  const factor = m[1] === "MM" ? 1e6 : SCALES[m[1]!.toLowerCase()];
  return factor === undefined ? undefined : { factor, length: m[0].length };
}

/**
 * Finds the values in a text: dates first, then clock times and ratios, then
 * numbers (digits, words, fractions) with their scale, currency, unit and
 * hedges. A four-digit number from 1000 to 2100 with no unit is a year, unless
 * a plural noun it counts follows it ("1000 employees").
 *
 * @example
 * findValues("The first superbowl was held on Jan 15, 1967").map((v) => v.dimension);
 * // → ["date"]
 * findValues("roughly 300,000 km per second")[0];
 * // → { dimension: "speed", value: 300000000, approximate: true, ... }
 */
export function findValues(text: string): TextValue[] {
  return recentValues.get(text, readValues);
}

/** Values of recently read texts (a clause is read again as a claim and for its embedding). */
const recentValues = new Memo<TextValue[]>(12_500);

/** Capitalised words before a number that are not names: prepositions, hedges and adverbs ("About 40", "In 1969"). */
const NOT_A_NAME = /^(?:In|On|At|By|About|Around|Since|From|To|Until|Before|After|The|Exactly|Roughly|Approximately|Nearly|Over|Under|Some|AD|CE|Only|Just|Almost|Precisely|Perhaps|Maybe|Probably|Up|All|And|Or|But|So|With|Within|Between|Of|For|During|Through|Every|Each|Approx|USD|EUR|GBP|KRW)$/;

/** A common noun and "No." or "#" right before a number ("reactor No. 4", "gate #12"). */
const NUMBER_MARK = /(?<![\p{L}])\p{Ll}+(?:\s+[Nn]o\.\s?|\s*#)$/u;

/**
 * Whether a number at `start` follows a capitalised word that names a thing ("Apollo 11", "Windows 10"),
 * not a month, or a common word capitalised only because it opens the sentence ("Typically 206"),
 * or follows a common noun and "No." or "#" ("reactor No. 4").
 */
function afterName(text: string, start: number): boolean {
  // "reactor No. 4", "gate #12": a number marked as the one of its kind.
  if (/(?:[Nn]o\.\s?|#)$/u.test(text.slice(Math.max(0, start - 4), start)) && NUMBER_MARK.test(text.slice(Math.max(0, start - 30), start))) return true;
  const word = /(\p{Lu}[\p{L}]+)\s$/u.exec(text.slice(Math.max(0, start - 20), start));
  return word !== null && MONTHS[word[1]!.toLowerCase()] === undefined && !NOT_A_NAME.test(word[1]!) && !opensSentence(text, start - word[0].length);
}

/** Two numbers joined by a colon, with an optional third part ("9:30", "21:00:05", "3:1", "16:9"). */
const COLON_PAIR = /(?<![\d.:,])(\d{1,3}(?:\.\d+)?):(\d{1,3}(?:\.\d+)?)(?::(\d{2}))?(?![\d:]|\.\d)/gu;
/** am or pm right after a time ("9 am", "9:30 p.m.", "9AM"). */
const MERIDIEM = /^\s?([ap])(?:\.\s?m\.?|m\b)/iu;
/** An hour with am/pm or "o'clock" and no colon ("9 am", "11 p.m.", "7 o'clock"). */
const HOUR_ONLY = /(?<![\d.:,])(\d{1,2})(?=\s?(?:[ap](?:\.\s?m|m\b)|o['’]clock\b))/giu;
/** Words near a colon pair that make it a ratio or a scale, not a time ("a 1:50 scale", "a ratio of 1:25"). */
const RATIO_WORD = /\b(?:ratios?|odds|scale|proportions?|aspect)\b/iu;

/** A clock time, in minutes after midnight; hours of 1–12 with no am/pm may be twelve hours later. */
function clockValue(text: string, start: number, end: number, hour: number, minutes: number, meridiem: string | undefined): TextValue {
  const pm = meridiem?.toLowerCase() === "p";
  const h = meridiem === undefined ? hour : (hour % 12) + (pm ? 12 : 0);
  const approximate = HEDGE_BEFORE.test(text.slice(Math.max(0, start - 24), start));
  const value: TextValue = { dimension: "time", value: h * 60 + minutes, approximate, step: 1, text: text.slice(start, end).trim(), start, end };
  if (meridiem === undefined && hour >= 1 && hour <= 12) value.twelveHour = true;
  return value;
}

/** Reads one colon pair as a time ("9:30", "21:00", "9:30 p.m.") or a ratio ("3:1", "a 1:50 scale"), or neither. */
function colonValue(text: string, m: RegExpMatchArray): TextValue | undefined {
  const [left, right] = [m[1]!, m[2]!];
  const end = m.index! + m[0].length;
  const meridiem = MERIDIEM.exec(text.slice(end));
  const ratioNear = RATIO_WORD.test(text.slice(Math.max(0, m.index! - 40), end + 25));
  const hour = Number(left);
  const timeLike = /^\d{1,2}$/.test(left) && /^\d{2}$/.test(right) && hour <= 24 && Number(right) < 60;
  if (timeLike && (meridiem ? hour >= 1 && hour <= 12 : !ratioNear)) {
    const seconds = m[3] === undefined ? 0 : Number(m[3]) / 60;
    return clockValue(text, m.index!, end + (meridiem?.[0].length ?? 0), hour, Number(right) + seconds, meridiem?.[1]);
  }
  if (m[3] !== undefined || Number(left) <= 0 || Number(right) <= 0) return undefined;
  // An ordered pair: 3:1 is not 1:3, and 2:6 is 1:3.
  return { dimension: "ratio", value: Number(left) / Number(right), approximate: false, step: 0, text: m[0], start: m.index!, end };
}

/** Clock times and ratios: "9:30 p.m.", "21:00", "9 am", "7 o'clock", "3:1", outside the spans already taken. */
function clocksAndRatios(text: string, taken: readonly Span[]): TextValue[] {
  const found: TextValue[] = [];
  const free = (start: number, end: number): boolean => !overlaps(taken, start, end) && !overlaps(found, start, end) && !afterName(text, start);
  if (text.includes(":")) {
    for (const m of text.matchAll(COLON_PAIR)) {
      const v = colonValue(text, m);
      if (v && free(v.start, v.end)) found.push(v);
    }
  }
  for (const m of text.matchAll(HOUR_ONLY)) {
    const rest = text.slice(m.index + m[0].length);
    const meridiem = MERIDIEM.exec(rest);
    const oclock = meridiem ? undefined : /^\s?o['’]clock\b/iu.exec(rest);
    const hour = Number(m[1]);
    if (hour < 1 || hour > 12) continue;
    const end = m.index + m[0].length + (meridiem ?? oclock)![0].length;
    if (free(m.index, end)) found.push(clockValue(text, m.index, end, hour, 0, meridiem?.[1]));
  }
  return found;
}

/** Whether `index` starts the text or a sentence in it, where any word is capitalised; a word ending in -ly there is an adverb. */
function opensSentence(text: string, index: number): boolean {
  const before = text.slice(0, Math.max(0, index)).trimEnd();
  if (before !== "" && !/[.!?:;\-–—•*]$/u.test(before)) return false;
  return /^\s*\p{Lu}\p{Ll}+ly\s/u.test(text.slice(Math.max(0, index)));
}

/** The place of the last significant digit of a number written in digits: "3,500" → 100, "1.61" → 0.01, "494" → 1. */
function digitStep(written: string): number {
  const body = written.replace(/^[-−–]/, "").replace(/[,\u202f\u00a0 ]/g, "");
  const point = body.indexOf(".");
  if (point >= 0) return 10 ** -(body.length - point - 1);
  return trailingZeroStep(Number(body));
}

/** The value of a Korean number in parts: "38만 4천" → 384000, "3억 5천만" → 350000000. */
function koreanNumber(text: string): number {
  let total = 0;
  let section = 0;
  for (const m of text.matchAll(/(\d+(?:\.\d+)?)\s?(천만|백만|조|억|만|천|백)?/gu)) {
    const n = Number(m[1]);
    const unit = m[2];
    if (unit === "조" || unit === "억" || unit === "만") {
      total += (section + n) * (SCALES[unit] ?? 1);
      section = 0;
    } else {
      section += n * (unit === undefined ? 1 : (SCALES[unit] ?? 1));
    }
  }
  return total + section;
}

/** 10 to the number of trailing zeros of a whole number: 3500 → 100, 7 → 1, 0 → 1. */
function trailingZeroStep(value: number): number {
  if (!Number.isInteger(value) || value === 0) return 1;
  let step = 1;
  while (value % (step * 10) === 0) step *= 10;
  return step;
}

const HAS_DIGIT = /\d/;
/** A dash or "to" and the number that ends a range, right after its start ("–180" of "175–180 °C", " to 4" of "3 to 4 days"). */
const RANGE_END = /^(?:\s?[-–—]\s?|\s+to\s+)\d+(?:[.,]\d+)*/u;
/** Words right before a four-digit number that make it a year ("in 1950", "since 1990", "by 2030"). */
const YEAR_BEFORE = /\b(?:in|since|until|till|by|from|after|before|during|circa|year|c\.)\s$/iu;
/**
 * A noun a number counts, right after it ("1000 employees", "1500 soldiers", "2000 people"):
 * a plural in lower case that is no verb or function word, or a plural without -s.
 */
const COUNTED_NOUN = /^\s(?:people|men|women|children|staff|troops|personnel|(?!(?:was|has|is|as|its|this|thus|yes|plus|less|unless|always|perhaps|does|goes|sees|saw|marks|brings|remains|becomes|begins|ends|means|comes|gets|makes|takes|gives|shows|seems|follows|proves|lies|heralds|witnesses|sets|puts|hits|lets)\b)[a-z]{2,}(?<![su])s)\b/u;
/** Whether a text may hold a clock time or a ratio (the gate before their patterns). */
const CLOCK_OR_RATIO_HINT = /\d:\d|\d\s?(?:[ap](?:\.\s?m|m\b)|o['’]clock)/iu;
/** Denominators of fractions in words, singular and plural. */
const FRACTION_PARTS: Readonly<Record<string, number>> = ownKeys<number>({
  half: 2, halves: 2, third: 3, thirds: 3, quarter: 4, quarters: 4, fourth: 4, fourths: 4, fifth: 5, fifths: 5,
  sixth: 6, sixths: 6, seventh: 7, sevenths: 7, eighth: 8, eighths: 8, ninth: 9, ninths: 9, tenth: 10, tenths: 10,
});
/**
 * A fraction in words: a count and a part ("two thirds", "three-quarters", "one fifth"), or "a"
 * or nothing and half, a third or a quarter before "of", "a", "the" ("a third of", "half the").
 */
const FRACTION = new RegExp(
  `\\b(?:(${FRACTION_COUNT})[\\s-]+(${Object.keys(FRACTION_PARTS).join("|")})\\b|(?:(?:a|an)[\\s-]+)?(half|third|quarter)\\b(?=\\s+(?:a|an|of|the)\\b))`,
  "giu",
);
/** A proper fraction in digits ("1/3", "3/4", "5/8"); "24/7" and "9/5" are not, nor are dates (read before). */
const DIGIT_FRACTION = /(?<![\d.,/])(\d{1,2})\/(\d{1,3})(?![\d/])/gu;
/** Words before "m/d" that make it a date ("on 7/4", "since 9/11"), not a fraction. */
const DATE_BEFORE = /\b(?:on|since|until|till|by|from|before|after)\s$/iu;
const HAS_NUMBER_WORD = new RegExp(`\\b(?:${Object.keys(SMALL_NUMBERS).join("|")}|hundred|thousand|million|billion|trillion|half|third|quarter|${Object.keys(ORDINAL_WORDS).join("|")})\\b`, "i");

/** The value of a fraction matched by {@link FRACTION}. */
function fractionValue(m: RegExpMatchArray): number {
  if (m[1] !== undefined) return (SMALL_NUMBERS[m[1].toLowerCase()] ?? 1) / (FRACTION_PARTS[m[2]!.toLowerCase()] ?? 1);
  return 1 / (FRACTION_PARTS[m[3]!.toLowerCase()] ?? 1);
}

/** Proper fractions in digits, outside the spans already taken: a value each, with the place of its last digit. */
function digitFractions(text: string, taken: readonly Span[]): Array<{ start: number; end: number; value: number; step: number }> {
  const found: Array<{ start: number; end: number; value: number; step: number }> = [];
  for (const m of text.matchAll(DIGIT_FRACTION)) {
    const top = Number(m[1]);
    const bottom = Number(m[2]);
    const end = m.index + m[0].length;
    if (top < 1 || bottom < 2 || top >= bottom || overlaps(taken, m.index, end)) continue;
    if (DATE_BEFORE.test(text.slice(Math.max(0, m.index - 7), m.index))) continue;
    found.push({ start: m.index, end, value: top / bottom, step: 1 / bottom / 10 });
  }
  return found;
}

/**
 * Digits and separators of other scripts and widths: full-width (１２３，４), Arabic-Indic (١٢٣٫٤),
 * Persian (۱۲۳), Devanagari (१९४५), Bengali, Thai and every other script's decimal digits
 * of one UTF-16 unit.
 */
const OTHER_DIGITS = /[\uFF0C\uFF0E\u066A-\u066C]|[^\P{Nd}0-9\u{10000}-\u{10FFFF}]/u;
const OTHER_DIGIT = /[\uFF0C\uFF0E\u066A-\u066C]|[^\P{Nd}0-9\u{10000}-\u{10FFFF}]/gu;
const DECIMAL_DIGIT = /\p{Nd}/u;

/** A digit or separator of {@link OTHER_DIGITS} as ASCII (one UTF-16 unit each, so positions in the text stay as they are). */
function asciiDigit(c: string): string {
  const code = c.charCodeAt(0);
  if (DECIMAL_DIGIT.test(c)) {
    // Unicode puts each script's digits in runs of ten from its zero: a digit's value is its place in its run.
    let before = 0;
    while (before < 60 && DECIMAL_DIGIT.test(String.fromCharCode(code - before - 1))) before++;
    return String(before % 10);
  }
  // Full-width comma and stop; the Arabic decimal separator (٫) and thousands separator (٬); the Arabic percent sign (٪).
  return code === 0xff0c || code === 0x066c ? "," : code === 0x066a ? "%" : ".";
}

function readValues(text: string): TextValue[] {
  // Digits of other widths and scripts are read as the ASCII ones they stand for.
  if (OTHER_DIGITS.test(text)) return readAsciiValues(text.replace(OTHER_DIGIT, asciiDigit));
  return readAsciiValues(text);
}

function readAsciiValues(text: string): TextValue[] {
  const digits = HAS_DIGIT.test(text);
  const words = HAS_NUMBER_WORD.test(text);
  const koreanCounts = KOREAN_NATIVE_HINT.test(text);
  // "every other year", "every second month" hold no number word.
  const periods = /\bevery\s+\S+\s+(?:year|month|day|hour|minute)\b/i.test(text);
  if (!digits && !words && !koreanCounts && !periods) return [];
  const values = digits ? findDates(text) : [];
  if (digits && CLOCK_OR_RATIO_HINT.test(text)) values.push(...clocksAndRatios(text, values));
  const taken: Span[] = values.map((v) => ({ start: v.start, end: v.end }));
  /** A value read whole, with no unit or hedge (an ordinal, a century, a decade, a Korean count), as written. */
  const whole = (dimension: Dimension, value: number, start: number, end: number): void => {
    values.push({ dimension, value, approximate: false, step: 1, text: text.slice(start, end), start, end });
    taken.push({ start, end });
  };
  const numbers: Array<{ start: number; end: number; value: number; step: number; year?: boolean }> = [];
  // Korean numbers in parts, read whole (their digit runs are not read again below).
  const compound: Span[] = [];
  if (digits && /[조억만천]/.test(text)) {
    for (const m of text.matchAll(KOREAN_NUMBER)) {
      if (overlaps(taken, m.index, m.index + m[0].length)) continue;
      const value = koreanNumber(m[0]);
      numbers.push({ start: m.index, end: m.index + m[0].length, value, step: trailingZeroStep(value) });
      compound.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  // Scientific notation, read whole: "6.022 × 10^23", "6.02 × 10²³", "3 x 10^8", "1.6e-19".
  if (digits && /\d\s*(?:[×x*]\s*10|e[-−+]?\d)/u.test(text)) {
    for (const m of text.matchAll(SCIENTIFIC)) {
      if (overlaps(taken, m.index, m.index + m[0].length)) continue;
      const exponent = Number((m[2] ?? m[3]!).replace(/^\+/, "").replace(/[⁰¹²³⁴⁵⁶⁷⁸⁹⁻−]/gu, (c) => SUPERSCRIPT_DIGITS[c] ?? c));
      if (!Number.isFinite(exponent)) continue;
      // (Read as "6.022e23": exact, where 6.022 × 10 ** 23 is not.)
      numbers.push({ start: m.index, end: m.index + m[0].length, value: Number(`${m[1]}e${exponent}`), step: Number(`${digitStep(m[1]!)}e${exponent}`) });
      compound.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  // Proper fractions in digits, read whole: "1/3", "3/4 of".
  if (digits && text.includes("/")) {
    for (const f of digitFractions(text, taken)) {
      numbers.push(f);
      compound.push({ start: f.start, end: f.end });
    }
  }
  if (koreanCounts) {
    for (const m of text.matchAll(KOREAN_NATIVE_NUMBER)) {
      if (m[1] === undefined && m[2] === undefined) continue;
      const end = m.index + m[0].length;
      if (overlaps(taken, m.index, end)) continue;
      const value = (m[1] === undefined ? 0 : KOREAN_NATIVE_TENS[m[1]]!) + (m[2] === undefined ? 0 : KOREAN_NATIVE_UNITS[m[2]]!);
      const years = m[3] === "해" || m[3] === "년";
      whole(years ? "duration-year" : "number", value, m.index, end);
    }
  }
  // "every fourth year", "every other month", "every 2nd day": a period, the same as "every four years" (read before the
  // ordinals, which would read "fourth" as a rank).
  for (const m of periods ? text.matchAll(EVERY_NTH) : []) {
    const word = m[1]!.toLowerCase();
    const count = word === "other" || word === "second" ? 2 : word === "first" ? 1 : (ORDINAL_WORDS[word] ?? Number.parseInt(word, 10));
    // The unit read as after a count ("four years"), so that the two compare.
    const unit = unitAfter(m[2]!, text);
    if (!Number.isFinite(count) || count < 1 || unit === undefined) continue;
    const start = m.index + m[0].indexOf(m[1]!, "every".length);
    if (overlaps(taken, start, m.index + m[0].length)) continue;
    whole(unit.dimension, count * unit.factor, start, m.index + m[0].length);
  }
  for (const m of ORDINAL_HINT.test(text) ? text.matchAll(ORDINAL_WORD) : []) {
    if (overlaps(taken, m.index, m.index + m[0].length)) continue;
    const unit = m[2]!.toLowerCase();
    if (m[1] === undefined && (unit === "first" || unit === "second")) continue;
    // "a third of", "one fifth", "three fifths": a fraction, not a rank.
    if (m[1] === undefined && FRACTION_COUNT_BEFORE.test(text.slice(Math.max(0, m.index - 7), m.index))) continue;
    const tens = m[1] === undefined ? 0 : (SMALL_NUMBERS[m[1].toLowerCase()] ?? 0);
    const value = tens + (unit === "first" ? 1 : unit === "second" ? 2 : (ORDINAL_WORDS[unit] ?? 0));
    let end = m.index + m[0].length;
    const century = CENTURY_AFTER.exec(text.slice(end));
    if (century) end += century[0].length;
    whole(century ? "century" : "ordinal", value, m.index, end);
  }
  for (const m of digits ? text.matchAll(DIGITS) : []) {
    let start = m.index;
    let written = m[0];
    // "60–100", "1914-1918": a dash right after a digit joins a range; it is no minus sign.
    if (/^[-−–]/.test(written) && start > 0 && /\d/.test(text.charAt(start - 1))) {
      start += 1;
      written = written.slice(1);
    }
    // A digit run glued to letters on its left (e.g. "CO2", "Q3", "H2O") is part of a name.
    if (start > 0 && /[\p{L}]/u.test(text.charAt(start - 1)) && !/[\uAC00-\uD7A3]/.test(text.charAt(start - 1))) continue;
    if (afterName(text, start)) continue;
    if (overlaps(taken, start, start + written.length) || overlaps(compound, start, start + written.length)) continue;
    // Digits joined by a middle dot name a day ("3·1절", "6·25 전쟁"): a name, not numbers.
    if (text.charAt(start - 1) === "·" || text.charAt(start + written.length) === "·") continue;
    // The end of a range of years written short: "1826–27", "1939-45" (the century of its start).
    const from = /(?<!\d)(\d{2})(\d{2})[-–]$/.exec(text.slice(Math.max(0, start - 6), start));
    if (from && /^\d{2}$/.test(written) && Number(written) > Number(from[2])) {
      numbers.push({ start, end: start + written.length, value: Number(from[1]) * 100 + Number(written), step: 1, year: true });
      continue;
    }
    numbers.push({ start, end: start + written.length, value: parseDigits(written), step: digitStep(written) });
  }
  for (const m of words ? text.matchAll(FRACTION) : []) {
    const fraction = fractionValue(m);
    numbers.push({ start: m.index, end: m.index + m[0].length, value: fraction, step: fraction / 10 });
  }
  for (const m of words ? text.matchAll(NUMBER_WORDS) : []) {
    for (const n of wordNumbers(m)) {
      if (n.value === 1 && /^one$/i.test(text.slice(n.start, n.end))) continue; // "one of", "one" as a pronoun
      numbers.push(n);
    }
  }
  numbers.sort((a, b) => a.start - b.start);
  for (const n of numbers) {
    if (overlaps(taken, n.start, n.end)) continue;
    let end = n.end;
    let value = n.value;
    let step = n.step;
    const before = text.slice(Math.max(0, n.start - 24), n.start);
    if (MINUS_BEFORE.test(before) && value > 0) value = -value;
    const money = MONEY_BEFORE.exec(before);
    const scale = scaleAfter(text.slice(end), money !== null);
    if (scale) {
      value *= scale.factor;
      step *= scale.factor;
      end += scale.length;
    }
    let dimension: Dimension = "number";
    const ordinal = ORDINAL_SUFFIX.exec(text.slice(end));
    if (ordinal && Number.isInteger(value) && value > 0) {
      end += ordinal[0].length;
      // "the 15th century" is a span of years, the same as "the 1400s" and "15세기".
      const century = CENTURY_AFTER.exec(text.slice(end));
      if (century) end += century[0].length;
      whole(century ? "century" : "ordinal", value, n.start, end);
      continue;
    }
    const koreanCentury = /^\s?세기/u.exec(text.slice(end));
    const hundreds = /^['’]?s\b/u.exec(text.slice(end));
    if ((koreanCentury || (hundreds && value % 100 === 0 && n.end - n.start === 4)) && Number.isInteger(value) && value > 0 && value <= 2100) {
      end += (koreanCentury ?? hundreds)![0].length;
      whole("century", koreanCentury ? value : value / 100 + 1, n.start, end);
      continue;
    }
    // "the 1990s": a decade (not 1,990 seconds).
    if (hundreds && value % 10 === 0 && n.end - n.start === 4 && Number.isInteger(value) && value >= 1000 && value <= 2100) {
      end += hundreds[0].length;
      whole("decade", value, n.start, end);
      continue;
    }
    const era = /^\s?(AD|CE|BC|BCE)\b/.exec(text.slice(end));
    if (era && Number.isInteger(value) && value > 0) {
      end += era[0].length;
      const year = era[1]!.startsWith("B") ? -value : value;
      values.push({ dimension: "year", value: year, date: { year }, approximate: false, text: text.slice(n.start, end).trim(), start: n.start, end });
      taken.push({ start: n.start, end });
      continue;
    }
    let lead = 0;
    let yearOrCount = false;
    if (/\b(?:AD|CE)\s$/.test(text.slice(Math.max(0, n.start - 3), n.start)) && Number.isInteger(value) && value > 0) {
      dimension = "year";
      lead = 3;
    }
    let unit = unitAfter(text.slice(end), text);
    // The start of a range takes the unit written after its end ("175–180 °C", "3 to 4 days", "20-30%").
    const range = unit || money ? null : RANGE_END.exec(text.slice(end));
    if (range) unit = unitAfter(text.slice(end + range[0].length), text);
    let customary = false;
    if (money) {
      dimension = moneyDimension(money[0]);
    } else if (unit) {
      dimension = unit.dimension;
      value *= unit.factor;
      step *= unit.factor;
      if (!range) end += unit.length;
      customary = unit.customary;
    } else if (YEAR_WORD.test(text.slice(end)) && Number.isInteger(value) && value > 0 && value < 100 && n.end - n.start <= 2) {
      // "임기는 5년", "10년 뒤": a number of years, not the year 5.
      dimension = "duration-year";
      end += /^\s*년/u.exec(text.slice(end))![0].length;
    } else if (dimension === "year" || n.year === true || YEAR_WORD.test(text.slice(end))) {
      dimension = "year";
    } else if (Number.isInteger(value) && value >= 1000 && value <= 2100 && n.end - n.start === 4) {
      // "1000 employees" is a count; "in 1950 scientists …" a year.
      const dated = YEAR_BEFORE.test(before);
      if (dated || !COUNTED_NOUN.test(text.slice(end))) {
        dimension = "year";
        yearOrCount = !dated;
      }
    }
    const approximate = HEDGE_BEFORE.test(before) || HEDGE_AFTER.test(text.slice(end)) || /~\s*$/.test(before);
    const start = money ? n.start - money[0].length : n.start - lead;
    taken.push({ start: n.start, end });
    values.push({
      dimension,
      value,
      ...(dimension === "year" ? { date: { year: value } } : {}),
      ...(yearOrCount ? { yearOrCount } : {}),
      ...(customary ? { customary } : {}),
      ...(unit && !money && unit.factor !== 1 ? { unitFactor: unit.factor } : {}),
      approximate,
      step,
      text: text.slice(start, end).trim(),
      start,
      end,
    });
  }
  return values.sort((a, b) => a.start - b.start);
}

/** Relative tolerance of an exact value. */
const EXACT_TOLERANCE = 0.005;
/** Physical sizes that two sources measure a little differently, and how far apart they may be. */
const MEASURED: ReadonlySet<Dimension> = new Set(["length", "mass", "area", "speed"]);
const MEASUREMENT_TOLERANCE = 0.0005;
/**
 * A hedged value agrees with another when the other, rounded to the coarser
 * of the two written precisions, gives it ("about 3,500" for 3,530; "roughly
 * 1.61 km" for 1,609 m): within half that step, but never beyond this share
 * of the larger value ("about 1,000" is not 1,400) ...
 */
const APPROXIMATE_CEILING = 0.1;
/** ... and always within this share ("about 8,800" for 8,849 m; "around 2,000" for 1,985). */
const APPROXIMATE_FLOOR = 0.02;

/**
 * Whether a hedged value and another agree (see {@link APPROXIMATE_CEILING}). A conversion
 * between metric and US units is rounded once more than the hedge says, so a hedged value
 * against a conversion gets twice the floor ("about 7.5 lb" for "about 3.5 kg", 3.40 kg).
 */
function closeApproximately(a: TextValue, b: TextValue, converted: boolean): boolean {
  const larger = Math.max(Math.abs(a.value), Math.abs(b.value));
  const step = Math.max(a.step ?? 0, b.step ?? 0);
  const floor = APPROXIMATE_FLOOR * (converted && (a.approximate || b.approximate) ? 2 : 1);
  const allowed = Math.max(Math.min(step / 2, APPROXIMATE_CEILING * larger), floor * larger);
  return Math.abs(a.value - b.value) <= allowed * (1 + 1e-9);
}

function isLoose(d: Dimension): boolean {
  return d === "number" || d === "degree";
}

function isTemperature(d: Dimension): boolean {
  return d.startsWith("temperature") || d === "degree";
}

/** A temperature on a named scale (°C, °F, K), not bare degrees. */
function isScale(d: Dimension): boolean {
  return d === "temperature-c" || d === "temperature-f" || d === "temperature-k";
}

/** A temperature in degrees Celsius, and the size of a step of its scale in them. */
function celsius(v: TextValue): { value: number; degree: number } {
  if (v.dimension === "temperature-f") return { value: ((v.value - 32) * 5) / 9, degree: 5 / 9 };
  if (v.dimension === "temperature-k") return { value: v.value - 273.15, degree: 1 };
  return { value: v.value, degree: 1 };
}

/** The coarsest place a written temperature is rounded to: its last significant digit, but at most tens ("100 °C" is not "to the nearest hundred"). */
const TEMPERATURE_STEP_CEILING = 10;

/**
 * Compares temperatures on two scales (°C, °F, K): one is a conversion of the other, rounded
 * where its writer rounded it. They agree when they differ by at most half the coarser written
 * step (212 °F and 100 °C; 350 °F and 180 °C; 273 K and 0 °C), and clash otherwise (194 °F,
 * which is 90 °C, against 100 °C). A hedged one may be rounded further, as hedged values are
 * ({@link closeApproximately}: half its step, up to a tenth of the value in °C).
 */
function compareScales(a: TextValue, b: TextValue): "same" | "different" {
  const x = celsius(a);
  const y = celsius(b);
  const stepOf = (v: TextValue, degree: number, ceiling: number): number => Math.min(v.step ?? 1, ceiling) * degree;
  let allowed = Math.max(stepOf(a, x.degree, TEMPERATURE_STEP_CEILING), stepOf(b, y.degree, TEMPERATURE_STEP_CEILING)) / 2;
  if (a.approximate || b.approximate) {
    const coarser = Math.max(stepOf(a, x.degree, Infinity), stepOf(b, y.degree, Infinity)) / 2;
    allowed = Math.max(allowed, Math.min(coarser, APPROXIMATE_CEILING * Math.max(Math.abs(x.value), Math.abs(y.value))));
  }
  return Math.abs(x.value - y.value) <= allowed + 1e-9 ? "same" : "different";
}

function isCalendar(d: Dimension): boolean {
  return d === "year" || d === "date";
}

/** Whether two dimensions can hold the same value: equal, or one of them a bare number / bare degrees. */
function compatible(a: Dimension, b: Dimension): boolean {
  if (a === b) return true;
  if (isCalendar(a) || isCalendar(b)) return isCalendar(a) && isCalendar(b);
  if (isLoose(a) && isLoose(b)) return true;
  if (a === "degree" || b === "degree") return isTemperature(a) && isTemperature(b);
  return isLoose(a) || isLoose(b);
}

/**
 * Two exact values in one unit that differ in a digit both of them write ("365 days" and "366
 * days"): different, though within the relative tolerance that absorbs rounding.
 */
function apartByDigit(a: TextValue, b: TextValue): boolean {
  if (a.dimension !== b.dimension || a.unitFactor !== b.unitFactor || a.step === undefined || b.step === undefined) return false;
  const step = Math.max(a.step, b.step);
  return step > 0 && Math.abs(a.value - b.value) >= step * (1 - 1e-9);
}

/** Whether two numbers are equal within a relative tolerance. */
function close(x: number, y: number, tolerance: number): boolean {
  return Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y));
}

/** A count written with separators or in words ("1,500", "1 500", "fifteen hundred"), not a year. */
function writtenAsCount(v: TextValue): boolean {
  return v.dimension === "number" && Number.isInteger(v.value) && (/\d[,\u202f\u00a0 ]\d{3}/u.test(v.text) || !/\d/.test(v.text));
}

/**
 * A bare four-digit number read as a year, against a count written as one: both as counts
 * ("The army had 1500." against "1,500 soldiers"), else undefined.
 */
function yearAsCount(a: TextValue, b: TextValue): [TextValue, TextValue] | undefined {
  const asCount = (v: TextValue): TextValue => ({ dimension: "number", value: v.value, approximate: v.approximate, step: v.step ?? 1, text: v.text, start: v.start, end: v.end });
  if (a.yearOrCount === true && writtenAsCount(b)) return [asCount(a), b];
  if (b.yearOrCount === true && writtenAsCount(a)) return [a, asCount(b)];
  return undefined;
}

/** A hedged time agrees with another within this many minutes ("around 9 pm" for 8:50 pm). */
const APPROXIMATE_MINUTES = 15;

/**
 * Compares a clock time with another value: two times agree when equal (a time with no am/pm
 * also twelve hours later); a bare whole hour ("at 9") agrees with a time on the hour that
 * it could be, and is unrelated to others; other values are unrelated to times.
 */
function compareTimes(a: TextValue, b: TextValue): "same" | "different" | "unrelated" {
  if (a.dimension === "time" && b.dimension === "time") {
    let apart = Math.abs(a.value - b.value);
    if (a.twelveHour === true || b.twelveHour === true) apart = Math.min(apart, Math.abs(apart - 720));
    return apart <= (a.approximate || b.approximate ? APPROXIMATE_MINUTES : 1e-9) ? "same" : "different";
  }
  const [time, other] = a.dimension === "time" ? [a, b] : [b, a];
  const hour = other.value;
  if (other.dimension !== "number" || !Number.isInteger(hour) || hour < 0 || hour > 24 || time.value % 60 !== 0) return "unrelated";
  return (time.value / 60) % 12 === hour % 12 ? "same" : "unrelated";
}

/**
 * Compares two values: `"same"` (equal within 0.5%; when either is hedged,
 * equal at the coarser written precision, within 2–10%; dates agree on
 * every part both state), `"different"`
 * (same dimension, other value), or `"unrelated"` (dimensions that cannot
 * be compared).
 *
 * @example
 * compareValues(findValues("about 78")[0]!, findValues("78.4")[0]!); // → "same"
 * compareValues(findValues("in 1929")[0]!, findValues("in 1928")[0]!); // → "different"
 */
export function compareValues(a: TextValue, b: TextValue): "same" | "different" | "unrelated" {
  if (a.dimension === "time" || b.dimension === "time") return compareTimes(a, b);
  if (a.dimension !== b.dimension && isScale(a.dimension) && isScale(b.dimension)) return compareScales(a, b);
  if (a.yearOrCount === true || b.yearOrCount === true) {
    const counts = yearAsCount(a, b);
    if (counts) return compareValues(counts[0], counts[1]);
  }
  if (!compatible(a.dimension, b.dimension)) return "unrelated";
  if (a.date && b.date) {
    let shared = 0;
    for (const part of ["year", "month", "day"] as const) {
      const x = a.date[part];
      const y = b.date[part];
      if (x === undefined || y === undefined) continue;
      if (x !== y && !(part === "year" && (a.shortYear === true || b.shortYear === true) && x % 100 === y % 100)) return "different";
      shared++;
    }
    return shared > 0 ? "same" : "unrelated";
  }
  if (a.date || b.date) {
    const year = (a.date ? a.date.year : a.value) ?? Number.NaN;
    const other = a.date ? b.value : (b.date?.year ?? Number.NaN);
    if (a.shortYear === true || b.shortYear === true) return year % 100 === other % 100 ? "same" : "different";
    return year === other ? "same" : "different";
  }
  // A quantity in a US or imperial unit against one in a metric unit: one is a conversion, rounded
  // as its writer wrote it ("5 miles" for 8 km, "1 cup" for 240 ml), so compared as hedged values are.
  const converted = a.dimension === b.dimension && (a.customary === true) !== (b.customary === true);
  // A bare number against a quantity: the number as written in its unit ("366" for "366 days", as "8,849" for "8,849 m").
  if (isLoose(a.dimension) !== isLoose(b.dimension) && (a.unitFactor !== undefined || b.unitFactor !== undefined)) {
    const written = (v: TextValue): TextValue => {
      if (v.unitFactor === undefined) return v;
      const { unitFactor, ...rest } = v;
      return { ...rest, value: v.value / unitFactor, step: (v.step ?? 0) / unitFactor };
    };
    const asWritten = compareValues(written(a), written(b));
    if (asWritten === "same") return "same";
  }
  const hedged = a.approximate || b.approximate || converted;
  if (hedged ? closeApproximately(a, b, converted) : close(a.value, b.value, EXACT_TOLERANCE) && !apartByDigit(a, b)) return "same";
  // Two surveys of one physical size differ in a last digit ("8,848 m" and "8,849 m" for Everest):
  // within 0.05% they are one measurement (not a count, a sum of money, a share or a time).
  if (a.dimension === b.dimension && MEASURED.has(a.dimension) && close(a.value, b.value, MEASUREMENT_TOLERANCE)) return "same";
  const tolerance = hedged ? APPROXIMATE_CEILING : EXACT_TOLERANCE;
  // (Compatible temperatures are one scale, or one scale and bare degrees: the same kind of quantity.)
  const strict = a.dimension === b.dimension || (isTemperature(a.dimension) && isTemperature(b.dimension));
  // A change of -20% is a fall of 20%; 5% is 0.05.
  // (Not two shares apart by a digit both write: 99.999% is not 99.95%.)
  const size = (v: TextValue): TextValue => ({ ...v, value: Math.abs(v.value) });
  if ((a.dimension === "percent" || b.dimension === "percent") && close(Math.abs(a.value), Math.abs(b.value), tolerance) && (hedged || !apartByDigit(size(a), size(b)))) return "same";
  if (a.dimension === "percent" && b.dimension === "number" && close(a.value, b.value * 100, tolerance)) return "same";
  if (b.dimension === "percent" && a.dimension === "number" && close(b.value, a.value * 100, tolerance)) return "same";
  // A bare number against a quantity may be another quantity altogether: not a clash.
  return strict ? "different" : "unrelated";
}

/**
 * A small count written in words ("two scales", "four chambers", "네 개"): a value the judge
 * does not require the other side to state, but checks against a count of the same thing.
 *
 * @example
 * isWordCount(findValues("three chambers")[0]!); // → true
 * isWordCount(findValues("3 chambers")[0]!);     // → false
 */
export function isWordCount(v: TextValue): boolean {
  return v.dimension === "number" && Number.isInteger(v.value) && Math.abs(v.value) < 10 && !/\d/.test(v.text);
}

/**
 * A canonical token for a value, for embeddings and reasons: "date:1967-1-15",
 * "year:1879", "temperature-c:100".
 *
 * @example
 * valueToken(findValues("15 January 1967")[0]!); // → "date:1967-1-15"
 */
export function valueToken(v: TextValue): string {
  if (v.date) return `${v.dimension}:${v.date.year ?? ""}-${v.date.month ?? ""}-${v.date.day ?? ""}`;
  if (v.twelveHour === true) return `${v.dimension}:${v.value % 720}`;
  const rounded = Number(v.value.toPrecision(v.approximate ? 2 : 6));
  return `${v.dimension}:${rounded}`;
}
