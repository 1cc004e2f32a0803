/**
 * Wording that means the allowance is used up rather than a momentary rate limit ("budget has
 * been exceeded", "insufficient_quota", "quota exceeded"): such a failure is never retried.
 */
const BUDGET_MARKERS: RegExp[] = [
  /budget (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:max(?:imum)? )?budget/i,
  /budget_exceeded/i,
  /insufficient[_ ]quota/i,
  /quota (?:has been |was )?exceeded/i,
  /exceeded (?:your |the )?(?:current )?quota/i,
  /insufficient (?:credits|balance|funds)/i,
];

/** True when the text carries budget/quota wording (see BUDGET_MARKERS). */
export function hasBudgetMarker(text: string): boolean {
  return BUDGET_MARKERS.some((re) => re.test(text));
}
