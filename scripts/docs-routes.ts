import { writeFileSync } from 'node:fs';
import { ROUTE_TABLE_FILE, routeTableMarkdown } from '../src/http/openapi/route-table.js';

// npm run docs:routes: regenerates docs/routes.md from the router.
writeFileSync(new URL(`../${ROUTE_TABLE_FILE}`, import.meta.url), routeTableMarkdown());
process.stdout.write(`wrote ${ROUTE_TABLE_FILE}\n`);
