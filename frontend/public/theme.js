/* global document, localStorage */
// Applies the saved theme before the first paint, so a dark-theme reader never sees a light flash. A file of its
// own (loaded without defer or async in <head>) so it runs under the page's Content-Security-Policy, which allows
// no inline script.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.dataset.theme = 'dark';
} catch {
  // Storage blocked: the light theme stays.
}
