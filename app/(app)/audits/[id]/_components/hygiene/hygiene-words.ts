// The Hygiene tab's words: a rule's title, a share as a percent, the sentence over the files ranked by dirt.
import { formatCount } from '@/lib/core/format';
import { RULES } from '@/lib/hygiene/rules';

/** A rule's title for people (its code for one the catalogue does not know, e.g. from a newer worker). */
export function ruleTitle(code: string): string {
  return code in RULES ? RULES[code as keyof typeof RULES].title : code;
}

/** 0 %, <0.1 %, one decimal below 10 % (the 1 % flag is visible: 0.9 % vs 1.2 %), whole percents above. */
export function percent(share: number): string {
  const value = share * 100;
  if (value === 0) return '0 %';
  return `${value < 0.1 ? '<0.1' : value.toFixed(value < 10 ? 1 : 0)} %`;
}

/** "1 of 2 files has…", "All 3 files have…", "The one file has…": the verb agrees with the count. */
export function flaggedSentence(flagged: number, total: number): string {
  const share = (whose: string) => `more than 1 % of ${whose} entries on the prune list.`;
  if (flagged === 0) return `No file has ${share('its')}`;
  if (total === 1) return `The one file has ${share('its')}`;
  if (flagged === total) return `All ${formatCount(total)} files have ${share('their')}`;
  const has = flagged === 1 ? `has ${share('its')}` : `have ${share('their')}`;
  return `${formatCount(flagged)} of ${formatCount(total)} files ${has}`;
}
