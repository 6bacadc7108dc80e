// The one MCP tool table. Each line points at a core operation.
import * as events from '../core/events';
import * as workspace from '../core/workspace';
import { type Tool, tool } from './tool-table';

export const tools: Tool[] = [
  tool(workspace.getMe),
  tool(workspace.getWorkspace),
  tool(events.listEvents),
  tool(events.getEvent),
  tool(events.createEvent),
  tool(events.updateEvent),
];
