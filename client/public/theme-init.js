// Sets the stored theme before the first paint, so a dark choice never flashes light. An external file,
// because the console's CSP allows no inline script. Storage errors (private windows) are ignored.
(function () {
  try {
    var t = window.localStorage.getItem('engine-console:theme');
    if (t === 'light' || t === 'dark') document.documentElement.setAttribute('data-theme', t);
  } catch (e) {
    /* no storage: follow the system */
  }
})();
