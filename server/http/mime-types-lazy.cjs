// mime-types as Koa and its helpers see it in the bundle (scripts/build-server.mjs aliases the package here):
// the same functions and tables, but the real module, with its 150 KB database, is loaded on first use
// instead of when Koa loads. Loading it cost ~45 ms of every start, before the first answer; the console's
// own answers set their Content-Type whole (server/http/content-type.ts), so most runs never load it.
'use strict';

let real = null;
// Required by a name held in a variable, so the bundler leaves it out: bundled, its database would still be
// parsed with the rest of the chunk at every start. Node resolves it from node_modules when first needed.
const PACKAGE = 'mime-types';
const load = () => (real ??= require(PACKAGE));

module.exports = {
  charset: (type) => load().charset(type),
  contentType: (str) => load().contentType(str),
  extension: (type) => load().extension(type),
  lookup: (path) => load().lookup(path),
  get charsets() {
    return load().charsets;
  },
  get extensions() {
    return load().extensions;
  },
  get types() {
    return load().types;
  },
};
