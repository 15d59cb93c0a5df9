// What counts as a history citation in a comment, for scripts/check-citations.ts. Comments say what is true and
// why, and cite docs/ pages; the story of how the code got here (which pass of the work, which working session,
// which run on which day, which issue, which numbered decision) belongs in commit messages and CHANGELOG.md.
import ts from 'typescript';
import { API_VERSION } from '../src/events/event-types.js';
import { SERVED_VERSIONS } from '../src/mcp/stateless-request.js';

export interface Citation {
  line: number;
  text: string;
  reason: string;
}

const ORDINALS =
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|' +
  'fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|\\d+(?:st|nd|rd|th)';

/**
 * "session" is a domain word here (login, dashboard, MCP and listen sessions), so only the phrases that place a
 * comment in the history of the work count, and "end this session" or "this session's token" (a person's session)
 * do not; a comment about a person's session reads best as "the session" anyway.
 */
const RULES: { pattern: RegExp; reason: string }[] = [
  { pattern: new RegExp(`\\b(?:${ORDINALS}) pass(?:es)?\\b`, 'i'), reason: 'cites a pass of the work' },
  { pattern: /\bpass (?:#?\d+|[A-Z])\b(?!\s*(?:ms|s|µs|us|%|×|x|rows|bytes)\b)/, reason: 'cites a pass of the work' },
  {
    pattern:
      /(?<!\bend )\b(?:this|last|next|previous|a later|an earlier) (?:working )?session\b(?!'s (?:token|cookie))/i,
    reason: 'cites a session of the work',
  },
  {
    // A run's label, not a count written as a letter ("runs N jobs").
    pattern: /\b[Rr]uns? [A-Z](?: (?:and|to|–|-) [A-Z])?\b(?! (?:jobs|queues|processes|workers|rounds|times)\b)/,
    reason: 'cites a run by its label',
  },
  { pattern: /\bruns? \d{1,2}(?:\s*(?:and|to|–|-)\s*\d{1,2})?(?=\s*(?:[,;:)]|\.(?!\d)|$))/, reason: 'cites a run' },
  { pattern: /\bissues? #?\d+\b/i, reason: 'cites an issue number' },
  { pattern: /(?:^|[\s(,])#\d+\b/, reason: 'cites an issue number' },
  { pattern: /\bdecisions? \d+\b/i, reason: 'cites a decision number (link its page under docs/ instead)' },
  { pattern: /\bdecisions\.md\b/, reason: 'cites decisions.md (link its page under docs/ instead)' },
];

/**
 * Dates that name something other than a day of the work: the MCP protocol revisions this server answers and the
 * webhook envelope's apiVersion. A date in a URL or an ISO timestamp (an example value) is not a citation either.
 */
const VERSION_DATES = new Set([...SERVED_VERSIONS, API_VERSION]);
const DATE = /\b20\d\d-[01]\d-[0-3]\d\b/g;

function datedCitation(text: string): string | null {
  for (const m of text.matchAll(DATE)) {
    const before = text.slice(0, m.index);
    const after = text.slice(m.index + m[0].length);
    if (VERSION_DATES.has(m[0]) || /T\d/.test(after.slice(0, 2)) || /\S*\/\/\S*$/.test(before)) continue;
    return 'cites a date (a run or a day of the work)';
  }
  return null;
}

/** The comments of a TypeScript source, each with the line it starts on (1-based). */
export function commentsOf(source: string): { line: number; text: string }[] {
  const file = ts.createSourceFile('file.ts', source, ts.ScriptTarget.Latest, false);
  const seen = new Set<number>();
  const found: { line: number; text: string }[] = [];
  const collect = (pos: number) => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(source, pos) ?? []),
      ...(ts.getTrailingCommentRanges(source, pos) ?? []),
    ];
    for (const r of ranges) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      found.push({ line: file.getLineAndCharacterOfPosition(r.pos).line + 1, text: source.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    collect(node.getFullStart());
    collect(node.getEnd());
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return found.sort((a, b) => a.line - b.line);
}

/** Every line of a comment in `source` that cites the history of the work, with why. */
export function citationsIn(source: string): Citation[] {
  const citations: Citation[] = [];
  for (const comment of commentsOf(source)) {
    comment.text.split('\n').forEach((text, i) => {
      const reason = RULES.find((r) => r.pattern.test(text))?.reason ?? datedCitation(text);
      if (reason) citations.push({ line: comment.line + i, text: text.trim(), reason });
    });
  }
  return citations;
}
