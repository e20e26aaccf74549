import { Spinner } from '../../../components/Spinner';
import { useSlowNotice } from '../hooks';

/** The loading spinner, which adds a word of patience once the load takes more than a few seconds. */
export function ResultsLoading({ label }: { label: string }) {
  const slow = useSlowNotice(true);
  return (
    <div className="stack">
      <Spinner label={label} />
      {slow && <p className="muted text-center">This is taking longer than usual. Large uploads can take a little while to load; please keep this page open.</p>}
    </div>
  );
}
