// Runs before the stylesheet and the app (a plain, blocking script in <head>; external so the
// shell's CSP needs no 'unsafe-inline'): it puts the remembered theme and language on <html> so
// the first paint already has the right colours. The app's theme/ and i18n/ modules own the
// same keys and keep the attributes in step afterwards.
(function () {
  var root = document.documentElement;
  var theme = 'system';
  var lang = '';
  try {
    theme = localStorage.getItem('cccc.theme') || 'system';
    lang = localStorage.getItem('cccc.lang') || '';
  } catch (e) {
    // storage blocked: follow the OS and the browser
  }
  if (theme !== 'light' && theme !== 'dark') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
  }
  root.setAttribute('data-theme', theme);
  if (lang) root.setAttribute('lang', lang);
})();
