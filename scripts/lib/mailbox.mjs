// identity's local mailbox (no SMTP_URL: one RFC 822 .eml file a message in DATA_DIR/mailbox), read the way a person
// reads their mail: for the tests, the benchmarks and the browser tests, which sign people up and confirm their e-mail.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every message in the folder, oldest first (file names start with the time written); none while it does not exist. */
export async function mailboxMessages(dir) {
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
}

/** A message's text with quoted-printable soft line breaks and `=3D` undone, so links read whole. */
export function decodeMail(text) {
  return text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

/** The token of the newest e-mail confirmation link mailed to `email` among `messages`, or undefined. */
export function confirmationTokenIn(messages, email) {
  for (const message of [...messages].reverse().map(decodeMail)) {
    if (!message.includes(`To: ${email}`)) continue;
    const link = /\/confirm-email\?token=([A-Za-z0-9_%-]+)/.exec(message);
    if (link) return decodeURIComponent(link[1]);
  }
  return undefined;
}

/**
 * Confirms `email` as its owner would: waits for the confirmation mail (`messages()` answers the mailbox now), then
 * sends its token to `<base>/api/auth/email-confirmation/confirm`. Throws when no mail came within `timeoutMs`.
 */
export async function confirmEmail(base, email, messages, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  let token;
  while (!(token = confirmationTokenIn(await messages(), email))) {
    if (Date.now() > deadline) throw new Error(`no confirmation mail reached ${email} within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const res = await fetch(`${base}/api/auth/email-confirmation/confirm`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (res.status !== 200) throw new Error(`confirming ${email} answered ${res.status}: ${await res.text()}`);
}
