/** A chart's value axis on round steps (the rating chart's), apart from rating.ts so the race page does not carry it. */

/** The least span the axis shows: a flat history is drawn on steps of 10, not of fractions. */
const MIN_SPAN = 40;

/** A round step near (max − min) / wanted: 1, 2 or 5 times a power of ten. */
function niceStep(span: number, wanted: number): number {
  const raw = Math.max(span, MIN_SPAN) / wanted;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw)!;
}

/** The value axis of a chart of `values`: bounds on round steps around them (never a zero span), and its ticks. */
export function chartScale(values: readonly number[], wanted: number): { min: number; max: number; ticks: number[] } {
  const low = Math.min(...values, values.length === 0 ? 1500 : Infinity);
  const high = Math.max(...values, values.length === 0 ? 1500 : -Infinity);
  const step = niceStep(high - low, wanted);
  const min = Math.floor(low / step) * step;
  const max = Math.max(Math.ceil(high / step) * step, min + step);
  const ticks: number[] = [];
  for (let tick = min; tick <= max; tick += step) ticks.push(tick);
  return { min, max, ticks };
}
