import { useCallback, useState } from 'react';
import { STATUS_POLL_MS } from '@frametext/contracts/rules';
import { useAppDispatch } from '../../lib/store';
import { api } from '../../lib/api';
import type { UploadStatus } from './api';
import { DoneStep } from './components/DoneStep';
import { ProcessingStep } from './components/ProcessingStep';
import { StepIndicator, type Step } from './components/StepIndicator';
import { UploadStep } from './components/UploadStep';
import type { StartedUpload } from './hooks/useUploadTransfer';
import './upload.css';

/**
 * The upload wizard: 1 Upload (choose, price, send), 2 Process (frames done out of total), 3 View (or No Text Results
 * Found, when almost nothing was read). Start Over remounts step 1, which resets every field and stops a transfer in flight.
 */
export function UploadWizard({ pollMs = STATUS_POLL_MS }: { pollMs?: number }) {
  const dispatch = useAppDispatch();
  const [run, setRun] = useState(0);
  const [step, setStep] = useState<Step>(1);
  const [upload, setUpload] = useState<StartedUpload | null>(null);
  const [processed, setProcessed] = useState<UploadStatus | null>(null);

  const onStarted = useCallback((started: StartedUpload) => {
    setUpload(started);
    setStep(2);
  }, []);
  const onProcessed = useCallback(
    (status: UploadStatus) => {
      // The card's status and the balance (credits captured) changed.
      dispatch(api.util.invalidateTags(['Uploads', 'Profile']));
      setProcessed(status);
      setStep(3);
    },
    [dispatch],
  );
  const startOver = useCallback(() => {
    setUpload(null);
    setProcessed(null);
    setStep(1);
    setRun((n) => n + 1);
  }, []);

  return (
    <div className="page container upload-wizard">
      <header className="page__header">
        <h1>New upload</h1>
        <p className="muted">Read the text and numbers in a video or a series of photos, frame by frame.</p>
      </header>
      <StepIndicator current={step} />
      {step === 1 && <UploadStep key={run} onStarted={onStarted} />}
      {step === 2 && upload && <ProcessingStep upload={upload} pollMs={pollMs} onProcessed={onProcessed} onStartOver={startOver} />}
      {step === 3 && upload && processed && <DoneStep upload={upload} status={processed} onStartOver={startOver} />}
    </div>
  );
}

export default function UploadWizardPage() {
  return <UploadWizard />;
}
