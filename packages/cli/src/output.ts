import { styleText } from 'node:util';
import { cliEnv } from './env.js';

// What the CLI writes: results on stdout (JSON lines with --json), messages and the spinner on stderr. Colour and
// the spinner only when that stream is a terminal (and NO_COLOR is unset), so pipes and scripts get plain text.

export const EXIT = {
  ok: 0,
  /** The API refused (bad credential, not found, conflict, 429) or could not be reached. */
  failed: 1,
  /** The command line itself is wrong (unknown option, a --forward-to that is not http(s)). */
  usage: 2,
} as const;

/** An error the CLI reports as one line and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

type Style = Parameters<typeof styleText>[0];
const colourOn = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !cliEnv.noColor;
export const paint = (stream: NodeJS.WriteStream, style: Style, text: string) =>
  colourOn(stream) ? styleText(style, text, { validateStream: false }) : text;

export interface Output {
  json: boolean;
  /** One result: an object as a JSON line with --json, else the text `human` renders. */
  result(value: unknown, human: () => string): void;
  /** A message for a person (stderr). */
  note(text: string): void;
  /** A spinner with `text` on a terminal until the returned function is called (nothing otherwise). */
  spin(text: string): () => void;
}

export function createOutput(json: boolean): Output {
  const { stdout, stderr } = process;
  let clearSpinner: (() => void) | null = null;
  const withoutSpinner = (write: () => void) => {
    if (clearSpinner) stderr.write('\r\x1b[2K');
    write();
  };
  return {
    json,
    result(value, human) {
      withoutSpinner(() => stdout.write(`${json ? JSON.stringify(value) : human()}\n`));
    },
    note(text) {
      if (!json) withoutSpinner(() => stderr.write(`${text}\n`));
    },
    spin(text) {
      if (!stderr.isTTY || json) return () => undefined;
      const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
      let i = 0;
      const timer = setInterval(
        () => stderr.write(`\r\x1b[2K${paint(stderr, 'cyan', frames[i++ % frames.length]!)} ${text}`),
        100,
      );
      timer.unref();
      const clear = () => {
        clearInterval(timer);
        stderr.write('\r\x1b[2K');
        clearSpinner = null;
      };
      clearSpinner = clear;
      return clear;
    },
  };
}

/** Rows as aligned columns (the human form of a list). */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '-' : String(r[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...cells.map(line)].join('\n');
}

/** `1 delivery`, `2 deliveries`: a count with its noun, the plural given when adding s is wrong. */
export const count = (n: number, singular: string, plural = `${singular}s`) => `${n} ${n === 1 ? singular : plural}`;

/** The fields of an answer that hold a credential shown this once, with how each is named to a person. */
const SHOWN_ONCE: Record<string, string> = {
  secret: 'Signing secret',
  key: 'Key',
  pollCredential: 'Poll credential',
};

/**
 * One record for a person: its credentials first, each once, saying it will not be shown again, then every other
 * field that has a value (`key: value`, nulls left out). With --json, the answer as the API gave it.
 */
export function showRecord(o: Output, value: Record<string, unknown>): void {
  o.result(value, () => {
    const secrets = Object.entries(SHOWN_ONCE)
      .filter(([field]) => typeof value[field] === 'string')
      .map(([field, label]) => `${label} (shown once: store it now): ${String(value[field])}`);
    const fields = Object.entries(value).filter(([k, v]) => v !== null && v !== undefined && !(k in SHOWN_ONCE));
    const width = Math.max(...fields.map(([k]) => k.length)) + 2;
    const lines = fields.map(
      ([k, v]) => `${`${k}:`.padEnd(width)}${typeof v === 'object' ? JSON.stringify(v) : String(v)}`,
    );
    return [...secrets, ...(secrets.length ? [''] : []), ...lines].join('\n');
  });
}
