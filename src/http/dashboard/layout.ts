import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { CREATED_KINDS } from '../../delivery/kinds/registry.js';
import { html, trusted, type SafeHtml } from './html.js';

// The page shell of the dashboard and the portal: no script at all, one stylesheet under a nonce, images only as
// data: URIs (the server-drawn chart), forms only to this origin, never framed, never cached.

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;background:#f4f5f7;color:#1d2430;margin:0}
header{background:#1d2430;color:#fff;padding:10px 24px;display:flex;gap:18px;align-items:center}
header a{color:#cfe0ff;text-decoration:none}header .who{margin-left:auto;color:#aab}
header form{margin:0}header button{background:none;border:1px solid #667;color:#fff;padding:3px 10px;border-radius:4px}
main{max-width:1080px;margin:24px auto;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002;padding:24px 28px}
h1{font-size:20px;margin:0 0 14px}h2{font-size:16px;margin:22px 0 8px}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e4e6ea;vertical-align:top}
th{font-size:12px;color:#556;text-transform:uppercase}
label{display:block;margin:8px 0 3px;font-weight:600}input[type=text],input[type=url],input[type=email],input[type=password],input[type=datetime-local],input[type=number],select{padding:6px;border:1px solid #bbc;border-radius:4px;min-width:260px}
button{padding:6px 12px;border:0;border-radius:4px;background:#2856d8;color:#fff;cursor:pointer}button:disabled{background:#c8ccd4;color:#667;cursor:not-allowed}
button.secondary{background:#e4e6ea;color:#1d2430}form.inline{display:inline-block;margin:0 6px 6px 0}
.error{color:#b00020}.field-error{color:#b00020;font-size:13px;margin:2px 0}.notice{background:#e7f6ec;border:1px solid #9ad2ae;padding:8px 12px;border-radius:4px}
.muted{color:#667;font-size:13px}.secret{font:15px monospace;background:#fff7d6;border:1px solid #e6cf72;padding:8px;word-break:break-all}
.status-active,.status-succeeded{color:#1e7b45}.status-disabled,.status-exhausted,.status-failed{color:#b00020}.status-pending{color:#8a6d00}
pre{background:#f6f7f9;border:1px solid #e4e6ea;padding:8px;white-space:pre-wrap;word-break:break-all;max-height:260px;overflow:auto}
code{background:#eef;padding:1px 4px;border-radius:3px}.grid{display:grid;grid-template-columns:repeat(4,1fr);gap:10px}
.stat{background:#f6f7f9;border-radius:6px;padding:8px 10px}img.chart{width:100%;height:auto}
.health-healthy{color:#1e7b45;font-weight:600}.health-failing,.health-disabled{color:#b00020;font-weight:600}.health-idle,.health-unknown{color:#667;font-weight:600}
.planned{color:#667;font-style:italic}.planned small{background:#eef;border-radius:3px;padding:0 4px;font-style:normal}.stat b{display:block;font-size:18px}fieldset{border:1px solid #dde;border-radius:4px}label.choice{display:block;font-weight:normal}\
form:has(input[name=kind]:checked) .kind-only{display:none}\
${CREATED_KINDS.filter((k) => k.fields.length)
  .map((k) => `form:has(input[name=kind][value=${k.name}]:checked) .kind-${k.name}`)
  .join(',')}{display:block}\
${CREATED_KINDS.filter((k) => k.url === 'none')
  .map((k) => `form:has(input[name=kind][value=${k.name}]:checked) .kind-url`)
  .join(',')}{display:none}`;

export interface Shell {
  title: string;
  /** The header's links and the signed-in person, or null on the sign-in and error pages. */
  nav?: SafeHtml | null;
  status?: number;
  /**
   * A portal page: another site may frame it (the account embeds it in its own app). Only the link's holder can
   * open one, so framing it gives a site nothing the link does not (docs/adr/0063-portal-links.md).
   */
  embeddable?: boolean;
}

export function renderShell(ctx: Context, shell: Shell, body: SafeHtml): void {
  const nonce = randomBytes(16).toString('base64');
  ctx.set('Content-Type', 'text/html; charset=utf-8');
  ctx.set('Cache-Control', 'no-store');
  if (!shell.embeddable) ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; form-action 'self'; frame-ancestors ${shell.embeddable ? '*' : "'none'"}; base-uri 'none'`,
  );
  ctx.status = shell.status ?? 200;
  ctx.body = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="icon" href="data:," />
        <title>${shell.title} · Switchboard</title>
        <style nonce="${nonce}">
          ${trusted(STYLE)}
        </style>
      </head>
      <body>
        ${shell.nav ?? ''}
        <main>
          <h1>${shell.title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value;
}
