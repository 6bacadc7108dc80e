// A place in the import file written as a JSON path (events[0].orders[3].attendees[1].email), the
// form every problem of an import names its place in.
export function jsonPath(keys: readonly (string | number)[]): string {
  let path = '';
  for (const key of keys)
    path +=
      typeof key === 'number'
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `${path ? '.' : ''}${key}`
          : `[${JSON.stringify(key)}]`;
  return path;
}
