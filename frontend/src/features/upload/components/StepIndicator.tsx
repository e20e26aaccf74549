export type Step = 1 | 2 | 3;

const STEPS: { step: Step; label: string }[] = [
  { step: 1, label: 'Upload' },
  { step: 2, label: 'Process' },
  { step: 3, label: 'View' },
];

export function StepIndicator({ current }: { current: Step }) {
  return (
    <ol className="steps wizard-steps" aria-label="Upload steps">
      {STEPS.map(({ step, label }) => {
        const state = step < current ? 'done' : step === current ? 'current' : 'todo';
        return (
          <li key={step} className={`wizard-steps__item wizard-steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="wizard-steps__number" aria-hidden="true">
              {state === 'done' ? '✓' : step}
            </span>
            <span>{label}</span>
            {state === 'done' && <span className="visually-hidden"> (done)</span>}
          </li>
        );
      })}
    </ol>
  );
}
