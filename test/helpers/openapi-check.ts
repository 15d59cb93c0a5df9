import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Checks real answers against the served OpenAPI document: the status must be one the operation lists, and the
// body must match that status's schema (error bodies included, whose `code` must be one listed for the status).
// Every call of test/helpers/http.ts goes through it, so each integration test checks the document for the
// routes it calls, without a hand-copied schema.

type Json = Record<string, any>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

interface Operation {
  template: string;
  pattern: RegExp;
  methods: Record<string, Json>;
}

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

export class ResponseChecker {
  // Lean validators (first error only, shared components compiled once): the API under test runs in this process.
  private readonly ajv = new Ajv2020({ strict: false, inlineRefs: false });
  private readonly operations: Operation[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    this.operations = Object.entries(document.paths as Record<string, Json>).map(([template, item]) => ({
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      methods: item,
    }));
  }

  /** The problems of one answer; empty when it matches the document (or the path is not an API route). */
  check(method: string, url: string, status: number, headers: Headers, body: unknown): string[] {
    const path = url.split('?')[0]!;
    const op = this.operations.find((o) => o.pattern.test(path));
    const operation = op?.methods[method.toLowerCase()];
    // Not a route of the router (ops endpoints, the OAuth server, an unknown path), or a method it lacks (405).
    if (!op || !operation) return [];
    const where = `${method} ${op.template} → ${status}`;
    const problems: string[] = [];
    if (!headers.get('x-request-id')) problems.push(`${where}: no X-Request-Id header`);
    const listed = operation.responses[String(status)];
    if (!listed)
      return [
        ...problems,
        `${where}: status not in the document (lists ${Object.keys(operation.responses).join(', ')}); body ${JSON.stringify(body)?.slice(0, 300)}`,
      ];
    // A shared response (components.responses) or the operation's own.
    const at = listed.$ref
      ? `openapi${String(listed.$ref)}`
      : `openapi#/paths/${escapePointer(op.template)}/${method.toLowerCase()}/responses/${status}`;
    const response = listed.$ref ? this.document.components.responses[String(listed.$ref).split('/').pop()!] : listed;
    const media = response.content?.['application/json'];
    if (!media || typeof body !== 'object' || body === null) return problems;
    const pointer = `${at}/content/application~1json/schema`;
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.compiled.set(pointer, validate);
    }
    if (!validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`);
      problems.push(
        `${where}: body does not match the document: ${errors.join('; ')}; body ${JSON.stringify(body).slice(0, 500)}`,
      );
    }
    // A shared error response lists every code of its status; the operation lists the ones it can answer.
    const codes = operation['x-error-codes']?.[String(status)] as string[] | undefined;
    const code = (body as { error?: { code?: unknown } }).error?.code;
    if (listed.$ref && codes && !codes.includes(String(code))) {
      problems.push(`${where}: the operation does not list the code ${String(code)} (lists ${codes.join(', ')})`);
    }
    return problems;
  }
}

let checker: Promise<ResponseChecker> | null = null;

/** The checker of the document the API under test serves; built once per test process. */
export function responseChecker(baseUrl: string): Promise<ResponseChecker> {
  checker ??= fetch(`${baseUrl}/openapi.json`)
    .then(async (res) => {
      if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
      return new ResponseChecker((await res.json()) as Json);
    })
    .catch((err: unknown) => {
      checker = null; // try again on the next call (the server may be down on purpose in a fault test)
      throw err;
    });
  return checker;
}
