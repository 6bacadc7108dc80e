// The import of a file of events and everything under them (tessera import, POST /import): the only
// way into core/import from other areas, rest, mcp and src.
export { ImportRefused, importFile, importFileOperation } from './import-file';
export { importJsonSchema } from './import-schema';
