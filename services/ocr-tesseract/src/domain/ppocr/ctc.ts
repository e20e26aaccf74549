/** One character of a recognised line: where in the model's output it was read (a time step) and how surely. */
export interface DecodedChar {
  char: string;
  /** The time step it was read at (each step covers the same width of the line's image, left to right). */
  step: number;
  probability: number;
}

/**
 * CTC greedy decoding of one line of the recogniser's output (`steps` × `classes` probabilities, row after row):
 * the most likely class at each step, repeats of the same class merged, class 0 (CTC's blank) dropped; class i ≥ 1
 * is the dictionary's character i - 1.
 */
export function ctcGreedy(output: Float32Array, offset: number, steps: number, classes: number, dictionary: readonly string[]): DecodedChar[] {
  const chars: DecodedChar[] = [];
  let previous = -1;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestP = output[row]!;
    for (let c = 1; c < classes; c++) {
      const p = output[row + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      const char = dictionary[best - 1];
      if (char !== undefined) chars.push({ char, step: t, probability: bestP });
    }
    previous = best;
  }
  return chars;
}
