import type { McpTool } from './tools.js';

export const accountTools: McpTool[] = [];
