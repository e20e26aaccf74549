import type { CheckoutSessionRow } from '../data/checkout-sessions.js';

/** What the simulated checkout page shows: a session to pay, or why it cannot be paid. */
export type SimulatedPageState =
  | { kind: 'payable'; session: CheckoutSessionRow; payPath: string; error?: string }
  | { kind: 'paid'; session: CheckoutSessionRow; successUrl: string }
  | { kind: 'closed'; session: CheckoutSessionRow }
  | { kind: 'unknown' };

export const NO_MONEY_NOTICE = 'This is a simulated checkout for local runs: no card is asked for and no money moves.';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function price(cents: number, currency: string): string {
  return `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`;
}

// The app's light palette and card, inline: the page must work with no script and no other file.
const STYLE = `
:root { color-scheme: light dark; --bg: #f7f8fb; --surface: #fff; --text: #161a23; --muted: #5a6274; --accent: #3b5bdb;
  --accent-hover: #2f4bc0; --border: #d9dde7; --warning: #b35c00; --warning-soft: #fff1dc; --danger: #c92a2a; --danger-soft: #ffe9e9; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f1218; --surface: #181c25; --text: #e8ebf2; --muted: #9aa3b5; --accent: #7c95ff;
  --accent-hover: #97aaff; --border: #2c3342; --warning: #ffa94d; --warning-soft: #3a2a15; --danger: #ff6b6b; --danger-soft: #3a1d22; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1.5rem; background: var(--bg); color: var(--text);
  font: 1rem/1.5 Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
main { width: 100%; max-width: 28rem; background: var(--surface); border: 1px solid var(--border); border-radius: 16px; padding: 2rem 1.5rem;
  box-shadow: 0 4px 16px rgba(20, 24, 40, 0.08); }
.brand { font-weight: 700; letter-spacing: -0.01em; margin: 0 0 1.5rem; }
.brand span { color: var(--accent); }
h1 { font-size: 1.375rem; margin: 0 0 0.25rem; }
.muted { color: var(--muted); margin: 0; }
.notice { margin: 1.5rem 0; padding: 0.75rem 1rem; border-radius: 10px; background: var(--warning-soft); color: var(--text); border-left: 4px solid var(--warning); }
.error { margin: 1rem 0; padding: 0.75rem 1rem; border-radius: 10px; background: var(--danger-soft); border-left: 4px solid var(--danger); }
dl { display: grid; grid-template-columns: 1fr auto; gap: 0.5rem 1rem; margin: 1.5rem 0; }
dt { color: var(--muted); } dd { margin: 0; font-weight: 600; text-align: right; }
.actions { display: flex; flex-direction: column; gap: 0.75rem; }
button, .link { display: block; width: 100%; text-align: center; font: inherit; font-weight: 600; padding: 0.75rem 1rem; border-radius: 10px;
  cursor: pointer; text-decoration: none; }
button { border: 0; background: var(--accent); color: #fff; }
button:hover { background: var(--accent-hover); }
.link { border: 1px solid var(--border); color: var(--text); background: transparent; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · FrameText</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="brand">Frame<span>Text</span></p>
${body}
</main>
</body>
</html>
`;
}

function summary(s: CheckoutSessionRow): string {
  return `<dl>
<dt>Credits</dt><dd>${s.credits.toLocaleString('en-US')}</dd>
<dt>Price</dt><dd>${escapeHtml(price(s.amountCents, s.currency))}</dd>
</dl>`;
}

/** The whole page for a state, as HTML (no script). */
export function simulatedCheckoutPage(state: SimulatedPageState): string {
  const notice = `<p class="notice"><strong>Test mode.</strong> ${escapeHtml(NO_MONEY_NOTICE)}</p>`;
  switch (state.kind) {
    case 'unknown':
      return layout('Checkout not found', `<h1>Checkout not found</h1><p class="muted">This payment link is not valid. Go back to FrameText and choose a pack again.</p>${notice}`);
    case 'closed':
      return layout(
        'Checkout closed',
        `<h1>This checkout has closed</h1><p class="muted">It was not paid in time. Choose a pack again to get a new one.</p>${summary(state.session)}
<div class="actions"><a class="link" href="${escapeHtml(state.session.cancelUrl)}">Return to FrameText</a></div>`,
      );
    case 'paid':
      return layout(
        'Already paid',
        `<h1>Already paid</h1><p class="muted">This checkout is paid and its credits are on your account.</p>${summary(state.session)}
<div class="actions"><a class="link" href="${escapeHtml(state.successUrl)}">Continue to FrameText</a></div>`,
      );
    case 'payable': {
      const s = state.session;
      const error = state.error ? `<p class="error" role="alert">${escapeHtml(state.error)}</p>` : '';
      return layout(
        `Buy ${s.credits} credits`,
        `<h1>Buy ${s.credits.toLocaleString('en-US')} credits</h1><p class="muted">One-time purchase; credits never expire.</p>
${notice}${summary(s)}${error}
<div class="actions">
<form method="post" action="${escapeHtml(state.payPath)}"><button type="submit">Pay ${escapeHtml(price(s.amountCents, s.currency))} (simulated)</button></form>
<a class="link" href="${escapeHtml(s.cancelUrl)}">Cancel and return to FrameText</a>
</div>`,
      );
    }
  }
}
