// The one version of Tessera: package.json's, shown by `tessera --version`, in the OpenAPI
// document's info and by the MCP server. The bundle and the single executable carry it inlined.
import packageJson from '../../package.json' with { type: 'json' };

export const tesseraVersion: string = packageJson.version;
