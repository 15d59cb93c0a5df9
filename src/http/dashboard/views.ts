import type { ApiError } from './api-client.js';
import { html, type SafeHtml } from './html.js';

// Building blocks shared by the dashboard's and the portal's pages: the header, CSRF fields, form fields with their
// errors, tables, status badges.

export interface Viewer {
  role: string;
  /** The signed-in person's email, named in the header; null where there is no person (a portal link). */
  email: string | null;
  canAdmin: boolean;
  csrf: string;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}" />`;

export const nav = (v: Viewer) =>
  html`<header>
    <strong>Switchboard</strong> <a href="/dashboard/webhooks">Subscriptions</a
    ><a href="/dashboard/portal-links">Portal links</a><a href="/dashboard/agents">Agents</a
    ><a href="/dashboard/keys">API keys</a><a href="/dashboard/grants">OAuth grants</a>
    <span class="who">Signed in as ${v.email ? `${v.email} (${v.role})` : v.role}</span>
    <form method="post" action="/dashboard/sign-out">${csrfField(v.csrf)}<button type="submit">Sign out</button></form>
  </header>`;

/** The message of the API's error for `field`, shown under it. */
export function fieldError(err: ApiError | null | undefined, field: string): SafeHtml {
  const found = err?.fields.filter((f) => f.field === field || f.field.startsWith(`${field}.`)) ?? [];
  return html`${found.map((f) => html`<p class="field-error" role="alert" data-field="${field}">${f.message}</p>`)}`;
}

/** The API's message when no field carries it (a 409, a 404, an SSRF refusal of a URL…). */
export function formError(err: ApiError | null | undefined, shownFields: string[]): SafeHtml {
  if (!err) return html``;
  const onFields = err.fields.some((f) => shownFields.some((s) => f.field === s || f.field.startsWith(`${s}.`)));
  return onFields ? html`` : html`<p class="error" role="alert">${err.message}</p>`;
}

export const badge = (status: string) => html`<span class="status-${status}">${status}</span>`;

export const when = (iso: string | null | undefined) => (iso ? iso.replace('T', ' ').slice(0, 19) + 'Z' : '—');

/** A form's submit button; disabled (and refused by the API anyway) when the viewer lacks the right. */
export const submitButton = (label: string, allowed = true) =>
  html`<button type="submit" ${allowed ? '' : html` disabled title="Your role does not allow this"`}>${label}</button>`;

/** A POST button, alone in its form. */
export function actionButton(action: string, label: string, csrf: string, allowed = true, extra?: SafeHtml): SafeHtml {
  return html`<form class="inline" method="post" action="${action}">
    ${csrfField(csrf)}${extra ?? ''} ${submitButton(label, allowed)}
  </form>`;
}

export interface TextField {
  id: string;
  /** The form's name for the value; `id` when absent. */
  name?: string;
  label: string;
  /** What was typed (kept when the API refuses it); no value attribute when absent. */
  value?: string;
  placeholder?: string;
  error?: ApiError | null;
  /** The API's name for the field, when it is not the form's (hours → expiresInSeconds). */
  apiField?: string;
}

/** A labelled text input with the API's message for it underneath. */
export function textField(f: TextField): SafeHtml {
  const name = f.name ?? f.id;
  return html`<label for="${f.id}">${f.label}</label
    ><input
      id="${f.id}"
      name="${name}"
      type="text"
      ${f.value === undefined ? '' : html` value="${f.value}"`}${f.placeholder ? html` placeholder="${f.placeholder}"` : ''}
    />
    ${fieldError(f.error, f.apiField ?? name)}`;
}

export interface Checkboxes {
  legend: string;
  name: string;
  values: readonly string[];
  /** The values ticked (what was sent, or the defaults). */
  chosen: Iterable<string>;
  error?: ApiError | null;
  /** How a value reads beside its box (the value itself when left out). */
  label?: (value: string) => SafeHtml;
}

/** A fieldset of checkboxes, one per value, with the API's message for the field underneath. */
export function checkboxes(c: Checkboxes): SafeHtml {
  const chosen = new Set(c.chosen);
  return html`<fieldset>
      <legend>${c.legend}</legend>
      ${c.values.map(
        (value) =>
          html`<label
            ><input type="checkbox" name="${c.name}" value="${value}" ${chosen.has(value) ? ' checked' : ''} />
            ${c.label ? c.label(value) : value}</label
          >`,
      )}
    </fieldset>
    ${fieldError(c.error, c.name)}`;
}

/** A list as a table: one header per column ('' for the actions column), or one row saying it is empty. */
export const dataTable = (headers: string[], rows: SafeHtml[], empty: string) =>
  html`<table>
    <thead>
      <tr>
        ${headers.map((h) => html`<th>${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${
        rows.length
          ? rows
          : html`<tr>
              <td colspan="${headers.length}" class="muted">${empty}</td>
            </tr>`
      }
    </tbody>
  </table>`;

export const notice = (text: string | null | undefined) =>
  text ? html`<p class="notice" role="status">${text}</p>` : html``;
