import type { CSSProperties } from 'react';

/** A grey shimmering placeholder of the size of what is loading; hidden from screen readers. */
export function Skeleton({ width = '100%', height = '1rem', radius, className, style }: { width?: string; height?: string; radius?: string; className?: string; style?: CSSProperties }) {
  return <span aria-hidden="true" className={className ? `skeleton ${className}` : 'skeleton'} style={{ width, height, borderRadius: radius, ...style }} />;
}
