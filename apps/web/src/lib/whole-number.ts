// One formatter for every count on screen: number.toLocaleString builds a new ICU formatter on
// each call, which showed in the dashboard's first render (issue 29: total blocking time).
const wholeNumber = new Intl.NumberFormat("en-US");

/** 12345 → "12,345". */
export function formatWholeNumber(value: number): string {
  return wholeNumber.format(value);
}
