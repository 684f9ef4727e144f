// A module resolve hook for the client data-layer tests. Under node, `solid-js` resolves to its server build,
// where effects never run, so createApiResource would never load. Imported from the client's data and api
// modules (and from the tests of them), `solid-js` resolves here to the browser build, whose reactive core
// runs in node as in the page. Other importers keep what node picks, so no other test changes.
const browserBuild = new URL('../../node_modules/solid-js/dist/solid.js', import.meta.url).href;
const scoped = ['/client/src/data/', '/client/src/api/', '/spec/client/data/', '/spec/client/api/'];

export async function resolve(specifier, context, next) {
  if (specifier === 'solid-js' && scoped.some((s) => (context.parentURL ?? '').includes(s))) {
    return { url: browserBuild, shortCircuit: true };
  }
  return next(specifier, context);
}
