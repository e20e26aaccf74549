import { useAppDispatch } from '../../../../lib/store';
import { toastShown } from '../../../../lib/ui';
import { Modal } from '../../../../components/Modal';
import { downloadFile } from '../../../../lib/download';

interface Props {
  title: string;
  text: string;
  /** Name of the file Download .txt saves. */
  fileName: string;
  onClose: () => void;
}

/** Shows a text export, with Download .txt, Copy to Clipboard and Done. */
export function TextResultModal({ title, text, fileName, onClose }: Props) {
  const dispatch = useAppDispatch();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      dispatch(toastShown('Contents copied to clipboard.', 'success'));
    } catch {
      dispatch(toastShown('The browser did not allow copying. Use Download .txt instead.', 'error'));
    }
  };
  return (
    <Modal
      title={title}
      wide
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={() => downloadFile(fileName, text)}>
            Download .txt
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => void copy()}>
            Copy to Clipboard
          </button>
          <button type="button" className="btn btn--primary" onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      <p className="muted small">{fileName}</p>
      <pre className="slides-result" tabIndex={0} role="region" aria-label={`Contents of ${fileName}`}>
        {text}
      </pre>
    </Modal>
  );
}
