// Applies the remembered color scheme before the app loads (no inline script: the CSP forbids them).
try {
  var stored = localStorage.getItem('mantine-color-scheme-value');
  var scheme = stored === 'light' || stored === 'dark' ? stored : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
} catch (e) {}
