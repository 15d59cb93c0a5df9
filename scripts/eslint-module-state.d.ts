import type { Rule } from 'eslint';

export const MODULE_STATE_ALLOWED: Record<string, string>;
export const noModuleState: Rule.RuleModule;
