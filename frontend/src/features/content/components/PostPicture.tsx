import type { PictureKind } from '../posts/types';
import './PostPicture.css';

/*
 * The blog's pictures, drawn inline so they follow the theme: every colour comes from a class in
 * PostPicture.css that maps to a design token. 400 x 225 (16:9) each.
 */

function Charger() {
  // A typical DC fast-charge curve: a quick ramp, a plateau, then a taper as the battery fills.
  const curve = 'M214 176 L226 96 L246 78 L268 80 L290 104 L314 128 L340 146 L370 158';
  return (
    <>
      <rect className="pic-frame" x="24" y="28" width="150" height="170" rx="14" />
      <rect className="pic-screen" x="38" y="44" width="122" height="138" rx="6" />
      <rect className="pic-box" x="48" y="58" width="102" height="40" rx="4" />
      <text className="pic-text pic-text--big" x="99" y="86" textAnchor="middle">142 kW</text>
      <rect className="pic-box" x="48" y="108" width="60" height="28" rx="4" />
      <text className="pic-text" x="78" y="127" textAnchor="middle">58%</text>
      <rect className="pic-muted" x="48" y="148" width="102" height="6" rx="3" />
      <rect className="pic-accent" x="48" y="148" width="59" height="6" rx="3" />
      <rect className="pic-muted" x="48" y="162" width="70" height="6" rx="3" />
      <path className="pic-arrow" d="M180 112 H202" />
      <path className="pic-axis" d="M210 40 V182 H382" />
      <path className="pic-curve" d={curve} />
      {[
        [226, 96],
        [246, 78],
        [268, 80],
        [290, 104],
        [314, 128],
        [340, 146],
        [370, 158],
      ].map(([x, y]) => (
        <circle key={x} className="pic-dot" cx={x} cy={y} r="4" />
      ))}
      <text className="pic-text pic-text--small" x="296" y="204" textAnchor="middle">state of charge</text>
      <text className="pic-text pic-text--small" x="214" y="34">kW</text>
    </>
  );
}

function Launch() {
  return (
    <>
      <rect className="pic-frame" x="20" y="16" width="360" height="193" rx="10" />
      <rect className="pic-screen" x="30" y="26" width="340" height="150" rx="4" />
      <path className="pic-curve" d="M70 168 C130 160 210 120 260 70 S330 30 352 32" />
      <path className="pic-rocket" d="M262 58 l14 -10 l-4 16 z" />
      <circle className="pic-muted" cx="74" cy="168" r="6" />
      <rect className="pic-box" x="44" y="182" width="132" height="20" rx="4" />
      <text className="pic-text pic-text--small" x="110" y="196" textAnchor="middle">SPEED 7,412 KM/H</text>
      <rect className="pic-box" x="206" y="182" width="150" height="20" rx="4" />
      <text className="pic-text pic-text--small" x="281" y="196" textAnchor="middle">ALTITUDE 82 KM</text>
      <text className="pic-text pic-text--small" x="40" y="44">T+00:02:41</text>
    </>
  );
}

function Slides() {
  const slide = (x: number, y: number, key: string) => (
    <g key={key}>
      <rect className="pic-frame" x={x} y={y} width="150" height="92" rx="6" />
      <rect className="pic-accent" x={x + 14} y={y + 14} width="86" height="10" rx="3" />
      {[34, 48, 62].map((dy, i) => (
        <rect key={dy} className="pic-muted" x={x + 14} y={y + dy} width={[118, 96, 108][i]} height="6" rx="3" />
      ))}
    </g>
  );
  return (
    <>
      {slide(40, 24, 'a')}
      {slide(56, 62, 'b')}
      {slide(72, 100, 'c')}
      <path className="pic-arrow" d="M236 140 H266" />
      <rect className="pic-paper" x="276" y="28" width="104" height="170" rx="6" />
      {[44, 56, 68, 92, 104, 116, 140, 152, 164].map((y, i) => (
        <rect key={y} className={i % 3 === 0 ? 'pic-accent' : 'pic-muted'} x="288" y={y} width={i % 3 === 0 ? 56 : 80 - (i % 2) * 14} height="5" rx="2.5" />
      ))}
    </>
  );
}

function Captions() {
  return (
    <>
      <rect className="pic-frame" x="16" y="20" width="250" height="170" rx="8" />
      <rect className="pic-screen" x="26" y="30" width="230" height="150" rx="4" />
      <circle className="pic-muted" cx="212" cy="62" r="14" />
      <path className="pic-muted" d="M26 150 L86 92 L126 128 L170 84 L256 160 V180 H26 Z" />
      <rect className="pic-caption" x="58" y="148" width="166" height="22" rx="3" />
      <text className="pic-text pic-text--small pic-text--onbox" x="141" y="163" textAnchor="middle">Where did you park the car?</text>
      <rect className="pic-select" x="50" y="142" width="182" height="34" rx="2" />
      {[
        ['0:04', 'Where did you park…'],
        ['0:07', 'By the old mill.'],
        ['0:11', 'That was hours ago.'],
      ].map(([t, line], i) => (
        <g key={t}>
          <text className="pic-text pic-text--small pic-text--accent" x="280" y={62 + i * 40}>{t}</text>
          <text className="pic-text pic-text--small" x="280" y={78 + i * 40}>{line}</text>
        </g>
      ))}
    </>
  );
}

function SpeechVsScreen() {
  const bars = [10, 26, 40, 18, 52, 30, 60, 24, 44, 14, 36, 20];
  return (
    <>
      <rect className="pic-frame" x="16" y="30" width="170" height="165" rx="10" />
      {bars.map((h, i) => (
        <rect key={i} className="pic-accent" x={32 + i * 12} y={90 - h / 2} width="6" height={h} rx="3" />
      ))}
      {[140, 156, 172].map((y, i) => (
        <rect key={y} className="pic-muted" x="32" y={y} width={[138, 116, 128][i]} height="6" rx="3" />
      ))}
      <text className="pic-text pic-text--small" x="101" y="128" textAnchor="middle">what is said</text>
      <text className="pic-text pic-text--big" x="200" y="118" textAnchor="middle">vs</text>
      <rect className="pic-frame" x="214" y="30" width="170" height="165" rx="10" />
      <rect className="pic-screen" x="228" y="44" width="142" height="80" rx="4" />
      <rect className="pic-box" x="238" y="56" width="70" height="22" rx="3" />
      <text className="pic-text pic-text--small" x="273" y="71" textAnchor="middle">23.4 °C</text>
      <rect className="pic-box" x="238" y="88" width="112" height="22" rx="3" />
      <text className="pic-text pic-text--small" x="294" y="103" textAnchor="middle">LAP 12 / 58</text>
      <text className="pic-text pic-text--small" x="299" y="142" textAnchor="middle">what is shown</text>
      {[154, 168, 182].map((y) => (
        <g key={y}>
          <rect className="pic-muted" x="228" y={y - 6} width="40" height="6" rx="3" />
          <rect className="pic-accent" x="276" y={y - 6} width="36" height="6" rx="3" />
          <rect className="pic-accent" x="320" y={y - 6} width="50" height="6" rx="3" />
        </g>
      ))}
    </>
  );
}

function ScrollList() {
  return (
    <>
      <rect className="pic-frame" x="40" y="12" width="120" height="201" rx="16" />
      <rect className="pic-screen" x="50" y="30" width="100" height="165" rx="4" />
      {[40, 78, 116, 154].map((y) => (
        <g key={y}>
          <circle className="pic-muted" cx="66" cy={y + 14} r="8" />
          <rect className="pic-accent" x="80" y={y + 6} width="54" height="6" rx="3" />
          <rect className="pic-muted" x="80" y={y + 18} width="40" height="5" rx="2.5" />
        </g>
      ))}
      <rect className="pic-select" x="54" y="74" width="92" height="36" rx="3" />
      <path className="pic-arrow" d="M170 48 V178" />
      <path className="pic-arrow" d="M164 170 L170 180 L176 170" />
      <path className="pic-arrow" d="M196 112 H224" />
      <rect className="pic-paper" x="234" y="28" width="148" height="170" rx="6" />
      {[48, 72, 96, 120, 144, 168].map((y, i) => (
        <g key={y}>
          <text className="pic-text pic-text--small pic-text--accent" x="246" y={y + 5}>{i + 1}</text>
          <rect className="pic-muted" x="262" y={y} width={[96, 80, 104, 72, 90, 84][i]} height="6" rx="3" />
        </g>
      ))}
    </>
  );
}

const DRAWINGS: Record<PictureKind, () => React.JSX.Element> = {
  charger: Charger,
  launch: Launch,
  slides: Slides,
  captions: Captions,
  'speech-vs-screen': SpeechVsScreen,
  'scroll-list': ScrollList,
};

/** A post's picture; `alt` says what it shows. */
export function PostPicture({ kind, alt, className }: { kind: PictureKind; alt: string; className?: string }) {
  const Drawing = DRAWINGS[kind];
  return (
    <svg className={`post-picture ${className ?? ''}`} viewBox="0 0 400 225" role="img" aria-label={alt}>
      <rect className="pic-bg" width="400" height="225" />
      <Drawing />
    </svg>
  );
}
