// Rows answered as arrays made into objects by one function per column list: both drivers build
// row objects one property at a time, which was about half of reading a page of 500 attendees.

type RowObject = (row: readonly unknown[]) => Record<string, unknown>;

const makers = new Map<string, RowObject>();

/**
 * The function that makes an array row of these columns into an object literal of a fixed shape. A
 * name given twice (a join's selectAll) keeps its first place and its last column, as the drivers'
 * own objects do. Made once per column list.
 */
export function rowObjectOf(names: readonly string[]): RowObject {
  const key = names.join('\u0000');
  let maker = makers.get(key);
  if (!maker) {
    const lastIndex = new Map<string, number>();
    for (const [i, name] of names.entries()) lastIndex.set(name, i);
    const fields = [...lastIndex].map(([name, i]) => `${JSON.stringify(name)}: r[${i}]`);
    maker = new Function('r', `return { ${fields.join(', ')} };`) as RowObject;
    if (makers.size >= 1000) makers.clear();
    makers.set(key, maker);
  }
  return maker;
}

/** Makes each array row of `rows` an object, in place. */
export function rowsAsObjects(rows: unknown[], toObject: RowObject): void {
  for (let i = 0; i < rows.length; i += 1) rows[i] = toObject(rows[i] as unknown[]);
}
