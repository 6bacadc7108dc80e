// Averages as answers show them (ratings, scores): two decimals, null when nothing was given.

export const roundTo2 = (x: number) => Math.round(x * 100) / 100;

export function averageOf(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return roundTo2(values.reduce((a, b) => a + b, 0) / values.length);
}
