import type { ApiError } from './api-client.js';
import { html, type SafeHtml } from './html.js';

// Building blocks shared by the dashboard's pages: the header, CSRF fields, field errors, status badges.

export interface Viewer {
  role: string;
  canAdmin: boolean;
  csrf: string;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf" value="${csrf}" />`;

export const nav = (v: Viewer) =>
  html`<header>
    <strong>Switchboard</strong> <a href="/dashboard/webhooks">Subscriptions</a
    ><a href="/dashboard/portal-links">Portal links</a><a href="/dashboard/agents">Agents</a
    ><a href="/dashboard/keys">API keys</a><a href="/dashboard/grants">OAuth grants</a>
    <span class="who">Signed in as ${v.role}</span>
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

/** A POST button; disabled (and refused by the API anyway) when the viewer lacks the right. */
export function actionButton(action: string, label: string, csrf: string, allowed = true, extra?: SafeHtml): SafeHtml {
  return html`<form class="inline" method="post" action="${action}">
    ${csrfField(csrf)}${extra ?? ''}
    <button type="submit" ${allowed ? '' : html` disabled title="Your role does not allow this"`}>${label}</button>
  </form>`;
}

export const notice = (text: string | null | undefined) =>
  text ? html`<p class="notice" role="status">${text}</p>` : html``;
