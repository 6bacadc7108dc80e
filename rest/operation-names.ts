// How a REST answer names an operation a problem mentions: its method and path below /api/v1, as the
// reference and the spec write them (PUT /events/{eventId}/status), from the one route table.
import { byTitle, type NameOperation } from '../core/platform/mentions';
import { openApiPath } from './route-table';
import { routes } from './routes';

let addresses: Map<string, string> | undefined;

export const restOperationName: NameOperation = (operation) => {
  addresses ??= new Map(
    [...routes].reverse().map((r) => [r.operation.name, `${r.method} ${openApiPath(r.path)}`]),
  );
  // An operation without a route (an operator's) is named by its title.
  return addresses.get(operation.name) ?? byTitle(operation);
};
