// No module-level state under src/ and workers/: what a runtime keeps (caches, memos, pools, limiters, counters)
// is built by the composition root into its Deps (src/app/deps.ts), and what an HTTP app keeps is on its context,
// so two runtimes in one process share nothing. `npm run lint` refuses, at the top level of a module:
// - a `let` or `var`;
// - a WeakMap, WeakSet or WeakRef (a cache keyed by a runtime is still one cache for every runtime), and a Map or
//   Set not declared as a ReadonlyMap or ReadonlySet (a constant lookup table says so in its type);
// and, inside a function, a write to a module-level binding of this file or to an imported one (`x.y = …`, `x.y++`,
// `delete x.y`, `list.push(…)`): the same state, held in an object.

/** The files allowed module-level state, and why; each must still hold some (test/unit/module-state.test.ts). */
export const MODULE_STATE_ALLOWED = {
  'src/platform/ids.ts':
    'a pool of CSPRNG bytes, each used once: runtimes drawing from one pool get independent random ids, and a ' +
    'pool per runtime would thread deps through every newId() for no difference anyone can observe',
  'src/platform/tracing-sdk.ts':
    'the OpenTelemetry SDK is process-global (its tracer provider and context manager are registered on the API ' +
    "once per process): whether it runs, its shutdown and its lost spans are the process's, set in tracingState",
};

const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef']);
const MUTATORS = new Set([
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'add',
  'delete',
  'clear',
]);

const isTopLevel = (node) =>
  node.parent.type === 'Program' ||
  (node.parent.type === 'ExportNamedDeclaration' && node.parent.parent.type === 'Program');

const unwrap = (node) =>
  node && ['TSAsExpression', 'TSSatisfiesExpression', 'TSNonNullExpression'].includes(node.type)
    ? unwrap(node.expression)
    : node;

function declaredReadonly(declarator) {
  const type = declarator.id.typeAnnotation?.typeAnnotation;
  return type?.type === 'TSTypeReference' && /^Readonly(Map|Set)$/.test(type.typeName.name ?? '');
}

/** @type {import('eslint').Rule.RuleModule} */
export const noModuleState = {
  meta: {
    type: 'problem',
    docs: { description: 'Module-level state belongs in the Deps the composition root builds (src/app/deps.ts)' },
    schema: [],
    messages: {
      binding: 'A module-level `{{kind}}` is state every runtime in the process shares: keep it in Deps.',
      weak: 'A module-level {{name}} is one cache for every runtime in the process, whatever it is keyed by: keep it in Deps.',
      collection:
        'A module-level {{name}} is state every runtime in the process shares: keep it in Deps (a constant lookup ' +
        'table is declared Readonly{{name}}).',
      write: 'This writes to `{{name}}`, module-level state every runtime in the process shares: keep it in Deps.',
    },
  },
  create(context) {
    const { sourceCode } = context;

    /** The module-level variable (of this file, or imported; `ownOnly`: of this file) a member chain starts at. */
    function moduleBinding(node, ownOnly) {
      let root = unwrap(node);
      while (root?.type === 'MemberExpression' || root?.type === 'ChainExpression') {
        root = unwrap(root.type === 'ChainExpression' ? root.expression : root.object);
      }
      if (root?.type !== 'Identifier') return null;
      for (let scope = sourceCode.getScope(node); scope; scope = scope.upper) {
        const variable = scope.set.get(root.name);
        if (!variable) continue;
        if (scope.type !== 'module') return null;
        const imported = variable.defs.some((def) => def.type === 'ImportBinding');
        return ownOnly && imported ? null : variable;
      }
      return null;
    }

    const inFunction = (node) => sourceCode.getAncestors(node).some((a) => /Function/.test(a.type));

    function checkWrite(node, target, ownOnly = false) {
      if (target?.type !== 'MemberExpression' || !inFunction(node)) return;
      const variable = moduleBinding(target, ownOnly);
      if (variable) context.report({ node, messageId: 'write', data: { name: variable.name } });
    }

    return {
      VariableDeclaration(node) {
        if (!isTopLevel(node)) return;
        if (node.kind !== 'const') {
          context.report({ node, messageId: 'binding', data: { kind: node.kind } });
          return;
        }
        for (const declarator of node.declarations) {
          const init = unwrap(declarator.init);
          if (init?.type !== 'NewExpression' || init.callee.type !== 'Identifier') continue;
          const name = init.callee.name;
          if (!COLLECTIONS.has(name)) continue;
          if (name.startsWith('Weak')) context.report({ node: declarator, messageId: 'weak', data: { name } });
          else if (!declaredReadonly(declarator)) {
            context.report({ node: declarator, messageId: 'collection', data: { name } });
          }
        }
      },
      AssignmentExpression: (node) => checkWrite(node, unwrap(node.left)),
      UpdateExpression: (node) => checkWrite(node, unwrap(node.argument)),
      UnaryExpression: (node) => node.operator === 'delete' && checkWrite(node, unwrap(node.argument)),
      // Of this file's bindings only: an imported namespace's `set` or `add` is a function like any other.
      CallExpression(node) {
        const callee = unwrap(node.callee);
        if (callee.type !== 'MemberExpression' || callee.computed || !MUTATORS.has(callee.property.name)) return;
        checkWrite(node, callee, true);
      },
    };
  },
};
