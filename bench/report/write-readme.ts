// Writes the figures of a run into bench/README.md between the results markers.

import { readFileSync, writeFileSync } from 'node:fs';

const start = '<!-- results:start -->';
const end = '<!-- results:end -->';

/** Replaces what is between the markers; returns false if the README has no markers. */
export function writeResultsIntoReadme(readmePath: string, markdown: string): boolean {
  let text: string;
  try {
    text = readFileSync(readmePath, 'utf8');
  } catch {
    return false;
  }
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return false;
  writeFileSync(readmePath, `${text.slice(0, from + start.length)}\n${markdown}\n${text.slice(to)}`);
  return true;
}
