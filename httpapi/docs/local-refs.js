// LocalRefsPlugin is a Swagger UI plugin: it resolves the subtrees Swagger
// UI asks for (an operation being expanded, a model, the security schemes)
// by following the document's local $refs itself. Keywords beside a $ref
// (OpenAPI 3.1 allows them: a member's description and examples) are kept
// and win over the referenced schema's, as ApiDOM merges them; a $ref back
// into a schema being expanded stays a $ref.
//
// Swagger UI 5 resolves OpenAPI 3.1 subtrees with ApiDOM, which turns the
// whole document into its element tree on every call: for this document,
// seconds of CPU at load and for each expanded operation
// (docs/api-reference.md has the measurements). Every $ref of the document
// is local, so nothing else is needed.
(function () {
  'use strict';

  // target returns the value a local JSON pointer (#/a/b) names.
  function target(root, ref) {
    return ref.slice(2).split('/').reduce(function (node, token) {
      return node == null ? undefined : node[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }, root);
  }

  // deref returns node with its local $refs followed; stack holds the
  // $refs being expanded (a recursive schema stops there).
  function deref(root, node, stack) {
    if (Array.isArray(node)) {
      return node.map(function (item) { return deref(root, item, stack); });
    }
    if (node === null || typeof node !== 'object') {
      return node;
    }
    var ref = node.$ref;
    var out = {};
    if (typeof ref === 'string' && ref.indexOf('#/') === 0 && stack.indexOf(ref) < 0) {
      var resolved = deref(root, target(root, ref), stack.concat([ref]));
      if (resolved !== null && typeof resolved === 'object' && !Array.isArray(resolved)) {
        Object.keys(resolved).forEach(function (k) { out[k] = resolved[k]; });
        out.$$ref = ref; // Swagger UI names models after it
      }
    }
    Object.keys(node).forEach(function (k) {
      if (k !== '$ref' || !out.$$ref) {
        out[k] = deref(root, node[k], stack);
      }
    });
    return out;
  }

  window.LocalRefsPlugin = function () {
    return {
      fn: {
        resolveSubtree: function (spec, path) {
          try {
            var node = path.reduce(function (o, k) { return o == null ? undefined : o[k]; }, spec);
            return Promise.resolve({ spec: deref(spec, node, []), errors: [] });
          } catch (e) {
            return Promise.resolve({ spec: null, errors: [{ message: String(e), fullPath: path }] });
          }
        }
      }
    };
  };
})();
