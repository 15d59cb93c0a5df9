import type { McpTool } from './tools.js';

export const agentTools: McpTool[] = [];
