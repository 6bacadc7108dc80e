// node-postgres's parameter conversion, which its published types leave out (db/deferred-statements.ts).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
