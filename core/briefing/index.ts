// The event briefing an assistant reads (MCP prompt and resource). The only way into core/briefing.
export { eventBriefing } from './event-briefing';
