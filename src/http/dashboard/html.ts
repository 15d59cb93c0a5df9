import { escapeHtml } from '../oauth/pages.js';

// Markup of the dashboard and the portal, built with one tagged template: every interpolated value is escaped
// unless it is markup this module produced (SafeHtml), so a page cannot forget to escape a value from outside
// (docs/adr/0061-dashboard-pages.md). Arrays are joined, null/undefined/false render nothing.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = SafeHtml | string | number | boolean | null | undefined | Part[];

const render = (part: Part): string => {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
};

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => (out += render(v) + strings[i + 1]!));
  return new SafeHtml(out);
}

/** Markup written in this code (the stylesheet) or by a trusted renderer (the chart's data URI). */
export const trusted = (markup: string): SafeHtml => new SafeHtml(markup);
