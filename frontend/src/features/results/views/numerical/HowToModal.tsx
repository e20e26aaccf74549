import { Modal } from '../../../../components/Modal';
import { KEYS, readJson, writeJson } from '../../../../lib/storage';

export const HOW_TO_TITLE = 'How to use the Numerical Tab';

/** Whether the how-to opens by itself: until it has been seen once in this browser, in the demo too. */
export function howToOpensByItself(): boolean {
  return readJson<boolean>(KEYS.viewedHowTo) !== true;
}

function remember() {
  try {
    writeJson(KEYS.viewedHowTo, true);
  } catch {
    // Private mode without storage: it opens again next time, nothing worse.
  }
}

/** The five steps of the Numerical view. Closing it in any way counts as seen. */
export function HowToModal({ onClose }: { onClose: () => void }) {
  const close = () => {
    remember();
    onClose();
  };
  return (
    <Modal
      title={HOW_TO_TITLE}
      onClose={close}
      footer={
        <button type="button" className="btn btn--primary" onClick={close}>
          Got it!
        </button>
      }
    >
      <ol className="numerical-howto">
        <li>Move to a frame that shows the numbers you want, with the slider or Prev and Next.</li>
        <li>Click a box around a reading (or Tab to it and press Enter). It becomes a series and turns green; the same reading is followed across all frames.</li>
        <li>In the edit panel, name the series and clean its text: remove words or characters, split and keep one piece, or keep numbers only.</li>
        <li>Lock the series you are happy with. If a series misses frames or mixes readings, adjust the tracking settings: that drops the series not locked, so pick them again.</li>
        <li>Check the Results to Export table and the chart, then press Export as csv to download the table as a CSV file named after the upload.</li>
      </ol>
    </Modal>
  );
}
