import { Fragment } from 'react';
import { Link } from 'react-router-dom';

const LINK = /\[([^\]]+)\]\((\/[^)\s]*)\)/g;

/** Text with [words](/internal-path) links turned into router links; everything else stays plain text. */
export function RichText({ text }: { text: string }) {
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const [whole, label, href] = match;
    parts.push(text.slice(last, match.index));
    parts.push(
      <Link key={match.index} to={href!}>
        {label}
      </Link>,
    );
    last = match.index + whole.length;
  }
  parts.push(text.slice(last));
  return <>{parts.map((part, i) => (typeof part === 'string' ? <Fragment key={`t${i}`}>{part}</Fragment> : part))}</>;
}
