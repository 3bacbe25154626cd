// The Porter (1980) stemming algorithm, the English stemmer of Dgraph's default fulltext
// analyzer ("stemmer_porter"). Written from the published algorithm description; words of one or
// two characters are left alone. Characters other than a, e, i, o, u (and y after a consonant)
// count as consonants, so non-ASCII words pass through mostly untouched.

const STEP2: readonly (readonly [string, string])[] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'],
  ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'],
  ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4: readonly string[] = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate',
  'iti', 'ous', 'ive', 'ize',
];

// The reference algorithm tries the suffixes of a step grouped by the word's penultimate letter, the
// longer ones first, and the first suffix that matches decides (even when its condition fails).
function firstMatch<T>(w: string, list: readonly T[], suffixOf: (t: T) => string): T | undefined {
  let best: T | undefined;
  let bestLen = 0;
  for (const t of list) {
    const s = suffixOf(t);
    if (s.length > bestLen && w.endsWith(s)) {
      best = t;
      bestLen = s.length;
    }
  }
  return best;
}

function isConsonant(w: string, i: number): boolean {
  switch (w.charCodeAt(i)) {
    case 97: case 101: case 105: case 111: case 117: // a e i o u
      return false;
    case 121: // y
      return i === 0 ? true : !isConsonant(w, i - 1);
    default:
      return true;
  }
}

/** m: the number of VC sequences in w[0, end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    n++;
    while (i < end && isConsonant(w, i)) i++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string, end: number): boolean {
  return end >= 2 && w[end - 1] === w[end - 2] && isConsonant(w, end - 1);
}

/** *o: w[0, end) ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3 || !isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

function step1ab(w: string): string {
  if (w.endsWith('s')) {
    if (w.endsWith('sses')) w = w.slice(0, -2);
    else if (w.endsWith('ies')) w = w.slice(0, -2);
    else if (!w.endsWith('ss')) w = w.slice(0, -1);
  }
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let stem: string | undefined;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stem = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stem = w.slice(0, -3);
  if (stem === undefined) return w;
  w = stem;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsDoubleConsonant(w, w.length)) {
    const c = w[w.length - 1];
    return c === 'l' || c === 's' || c === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + 'e';
  return w;
}

function step1c(w: string): string {
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) return w.slice(0, -1) + 'i';
  return w;
}

function replaceStep(w: string, table: readonly (readonly [string, string])[]): string {
  const hit = firstMatch(w, table, (t) => t[0]);
  if (hit === undefined) return w;
  const stemEnd = w.length - hit[0].length;
  return measure(w, stemEnd) > 0 ? w.slice(0, stemEnd) + hit[1] : w;
}

function step4(w: string): string {
  let hit = firstMatch(w, STEP4, (s) => s);
  if (hit === undefined) return w;
  const stemEnd = w.length - hit.length;
  if (hit === 'ion') {
    const c = w[stemEnd - 1];
    if (c !== 's' && c !== 't') {
      // "ion" does not apply; the reference goes on to try "ou" only, which cannot match here.
      hit = undefined;
    }
  }
  if (hit === undefined) return w;
  return measure(w, stemEnd) > 1 ? w.slice(0, stemEnd) : w;
}

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

/** Porter stem of a lower-case word. */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = replaceStep(w, STEP2);
  w = replaceStep(w, STEP3);
  w = step4(w);
  return step5(w);
}
